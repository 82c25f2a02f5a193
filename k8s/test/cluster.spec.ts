import { readdirSync } from 'node:fs';
import { type ControlPlane, startControlPlane, toolPaths } from '@shop/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENVIRONMENTS,
  type Environment,
  type KubeObject,
  UNITS,
  kustomize,
  unitFolder,
  wholeFolder,
} from './support/render';

// The manifests on a real API server (libs/infra's local control plane: kube-apiserver, etcd, and for
// rollouts the controller manager, the scheduler and kwok's fake nodes), as each team's pipeline applies
// them: server-side, under a field manager of its own (docs/deploy.md).

const NAMESPACE = 'shop';
const STARTUP_MS = 120_000;
/** A hang guard for a step of many kubectl calls, not a speed bound. */
const STEP_MS = 300_000;

/** The objects of one folder as one kubectl input (a List: kubectl reads it as a stream of objects). */
const listOf = (objects: KubeObject[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects });

/** Installs the CRDs the manifests use (the Prometheus Operator's, Argo Rollouts'). */
function installCrds(cluster: ControlPlane): void {
  const { prometheusOperatorCrds, argoRolloutsCrds } = toolPaths().controlPlane;
  for (const dir of [prometheusOperatorCrds, argoRolloutsCrds]) {
    for (const file of readdirSync(dir)) {
      cluster.kubectlOk(['apply', '--server-side', '--field-manager=crds', '-f', `${dir}/${file}`]);
    }
  }
  cluster.kubectlOk(['wait', '--for=condition=Established', 'crd', '--all', '--timeout=60s']);
}

/**
 * Applies objects server-side as `manager`; answers what kubectl said. A team shipping a release
 * (`release`) applies as its pipeline does, taking its own unit's fields over from whoever applied the
 * environment first (`--force-conflicts`): that it takes nothing of another team's is checked apart.
 */
function apply(
  cluster: ControlPlane,
  objects: KubeObject[],
  manager: string,
  options: { release?: boolean; kubeconfig?: string } = {},
) {
  const force = options.release ? ['--force-conflicts'] : [];
  return cluster.kubectl(['apply', '--server-side', `--field-manager=${manager}`, ...force, '-f', '-'], {
    input: listOf(objects),
    kubeconfig: options.kubeconfig,
  });
}

/** Which unit each object of an environment belongs to (`Kind/name`), from each unit's own render. */
function ownersIn(environment: Environment): Map<string, string> {
  const owners = new Map<string, string>();
  for (const unit of UNITS) {
    for (const object of kustomize(unitFolder(unit, environment))) {
      owners.set(`${object.kind}/${object.metadata.name}`, unit);
    }
  }
  return owners;
}

const warningsOf = (stderr: string) => stderr.split('\n').filter((line) => /^Warning:/i.test(line));

/** Every object of the shop's namespace, of the kinds the manifests hold, with who manages its fields. */
function storedObjects(cluster: ControlPlane): KubeObject[] {
  const kinds =
    'deployments,statefulsets,services,configmaps,serviceaccounts,networkpolicies,poddisruptionbudgets,horizontalpodautoscalers,ingresses';
  const answer = cluster.kubectlOk(['get', kinds, '-n', NAMESPACE, '-o', 'json', '--show-managed-fields']);
  return (JSON.parse(answer) as { items: KubeObject[] }).items;
}

interface ManagedField {
  manager: string;
  operation: string;
}

describe.each(ENVIRONMENTS)('the %s environment on a real API server', (environment: Environment) => {
  let cluster: ControlPlane;

  beforeAll(async () => {
    cluster = await startControlPlane();
    installCrds(cluster);
  }, STARTUP_MS);

  afterAll(async () => {
    await cluster?.stop();
  });

  it(
    'is applied whole, server-side, with Pod Security restricted enforced and no warning',
    () => {
      const answer = apply(cluster, kustomize(wholeFolder(environment)), 'environment');
      expect(answer.stderr, answer.stderr).not.toMatch(/error/i);
      expect(answer.status).toBe(0);
      expect(warningsOf(answer.stderr)).toEqual([]);
      const namespace = JSON.parse(
        cluster.kubectlOk(['get', 'namespace', NAMESPACE, '-o', 'json']),
      ) as KubeObject;
      expect(namespace.metadata.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
      const monitoring = apply(cluster, kustomize('monitoring'), 'monitoring');
      expect(monitoring.status, monitoring.stderr).toBe(0);
      expect(warningsOf(monitoring.stderr)).toEqual([]);
    },
    STEP_MS,
  );

  it(
    "lets each team apply its own unit under its own field manager, taking no field of another team's",
    () => {
      const conflicts: string[] = [];
      for (const unit of UNITS) {
        const answer = apply(cluster, kustomize(unitFolder(unit, environment)), `team-${unit}`);
        if (answer.status !== 0) conflicts.push(`${unit}: ${answer.stderr.trim()}`);
      }
      expect(conflicts).toEqual([]);
      expect(fieldsTakenIn(cluster, environment)).toEqual([]);
    },
    STEP_MS,
  );

  it(
    'keeps a team’s new release when every other team applies its unit again',
    () => {
      const orders = kustomize(unitFolder('orders', environment)).map((object) =>
        object.kind === 'Deployment' ? withImageTag(object, '9.9.9') : object,
      );
      const shipped = apply(cluster, orders, 'team-orders', { release: true });
      expect(shipped.status, shipped.stderr).toBe(0);
      const conflicts: string[] = [];
      for (const unit of UNITS.filter((each) => each !== 'orders')) {
        const answer = apply(cluster, kustomize(unitFolder(unit, environment)), `team-${unit}`);
        if (answer.status !== 0) conflicts.push(`${unit}: ${answer.stderr.trim()}`);
      }
      expect(conflicts).toEqual([]);
      const image = cluster.kubectlOk([
        'get',
        'deployment',
        'orders',
        '-n',
        NAMESPACE,
        '-o',
        'jsonpath={.spec.template.spec.containers[0].image}',
      ]);
      expect(image).toMatch(/:9\.9\.9$/);
      expect(fieldsTakenIn(cluster, environment)).toEqual([]);
    },
    STEP_MS,
  );
});

/**
 * The objects holding fields applied by a team other than their unit's (or, for an object of no unit,
 * by any team): each such field is one team's change another team's apply would undo.
 */
function fieldsTakenIn(cluster: ControlPlane, environment: Environment): string[] {
  const owners = ownersIn(environment);
  const taken: string[] = [];
  for (const object of storedObjects(cluster)) {
    const owner = owners.get(`${object.kind}/${object.metadata.name}`);
    const appliers = ((object.metadata as { managedFields?: ManagedField[] }).managedFields ?? [])
      .filter((field) => field.operation === 'Apply')
      .map((field) => field.manager);
    for (const manager of appliers) {
      if (manager.startsWith('team-') && manager !== `team-${owner}`) {
        taken.push(`${object.kind}/${object.metadata.name} (${owner ?? 'no unit'}) applied by ${manager}`);
      }
    }
  }
  return taken;
}

/** A copy of a Deployment whose containers run `tag` of their images. */
function withImageTag(deployment: KubeObject, tag: string): KubeObject {
  const copy = structuredClone(deployment) as KubeObject & {
    spec: { template: { spec: { containers: { image: string }[] } } };
  };
  for (const container of copy.spec.template.spec.containers) {
    container.image = container.image.replace(/:[^:/]+$/, `:${tag}`);
  }
  return copy;
}

describe('the dev environment rolled out on fake nodes', () => {
  let cluster: ControlPlane;

  beforeAll(async () => {
    cluster = await startControlPlane({ controllers: true, nodes: 3 });
    installCrds(cluster);
    const answer = apply(cluster, kustomize(wholeFolder('dev')), 'environment');
    if (answer.status !== 0) throw new Error(answer.stderr);
  }, STARTUP_MS);

  afterAll(async () => {
    await cluster?.stop();
  });

  const workloads = () =>
    kustomize(wholeFolder('dev')).filter(
      (object) => object.kind === 'Deployment' || object.kind === 'StatefulSet',
    );

  const rolledOut = (kind: string, name: string) =>
    cluster.kubectl(
      ['rollout', 'status', `${kind.toLowerCase()}/${name}`, '-n', NAMESPACE, '--timeout=180s'],
      {
        timeoutMs: 200_000,
      },
    );

  it('rolls every Deployment and StatefulSet out to completion', () => {
    const stuck = workloads()
      .map((workload) => ({ workload, answer: rolledOut(workload.kind, workload.metadata.name) }))
      .filter(({ answer }) => answer.status !== 0)
      .map(({ workload, answer }) => `${workload.kind}/${workload.metadata.name}: ${answer.stderr.trim()}`);
    expect(stuck).toEqual([]);
  }, 600_000);

  /** The resource version of every object of the other units: what a rollout of `unit` must not touch. */
  const othersOf = (unit: string) => {
    const owners = ownersIn('dev');
    return Object.fromEntries(
      storedObjects(cluster)
        .filter((object) => owners.get(`${object.kind}/${object.metadata.name}`) !== unit)
        .map((object) => [`${object.kind}/${object.metadata.name}`, object.metadata.resourceVersion]),
    );
  };

  it.each(['orders', 'mf-catalog'])(
    'ships a new version of %s and rolls it back, touching no other unit',
    (unit) => {
      const before = othersOf(unit);
      const release = kustomize(unitFolder(unit, 'dev'));
      const deployment = release.find((object) => object.kind === 'Deployment')!;
      const shipped = apply(
        cluster,
        release.map((object) => (object === deployment ? withImageTag(object, '9.9.9') : object)),
        `team-${unit}`,
        { release: true },
      );
      expect(shipped.status, shipped.stderr).toBe(0);
      expect(rolledOut('Deployment', deployment.metadata.name).status).toBe(0);
      expect(
        cluster.kubectlOk(['rollout', 'undo', `deployment/${deployment.metadata.name}`, '-n', NAMESPACE]),
      ).toMatch(/rolled back/);
      expect(rolledOut('Deployment', deployment.metadata.name).status).toBe(0);
      const image = cluster.kubectlOk([
        'get',
        'deployment',
        deployment.metadata.name,
        '-n',
        NAMESPACE,
        '-o',
        'jsonpath={.spec.template.spec.containers[0].image}',
      ]);
      expect(image).not.toMatch(/:9\.9\.9$/);
      expect(othersOf(unit)).toEqual(before);
    },
    400_000,
  );
});

// A missing limit is refused by the suite, not the server (no LimitRange is the shop's): policy.spec.ts.
describe('what the API server refuses', () => {
  let cluster: ControlPlane;

  beforeAll(async () => {
    cluster = await startControlPlane();
    // The namespace, and the ServiceAccount the orders pods name (admission looks it up first).
    const account = kustomize(unitFolder('orders', 'dev')).filter(
      (object) => object.kind === 'ServiceAccount',
    );
    const answer = apply(cluster, [...kustomize(unitFolder('namespace', 'dev')), ...account], 'environment');
    if (answer.status !== 0) throw new Error(answer.stderr);
  }, STARTUP_MS);

  afterAll(async () => {
    await cluster?.stop();
  });

  const orders = () =>
    structuredClone(kustomize(unitFolder('orders', 'dev')).find((object) => object.kind === 'Deployment')!);
  type Pod = {
    spec: {
      template: {
        metadata: { labels: Record<string, string> };
        spec: { containers: Record<string, unknown>[] };
      };
    };
  };
  const refusal = (object: KubeObject) => {
    const answer = cluster.kubectl(
      ['apply', '--server-side', '--dry-run=server', '--field-manager=probe', '-f', '-'],
      {
        input: JSON.stringify(object),
      },
    );
    return { status: answer.status, said: answer.stderr };
  };

  it('refuses a pod of a privileged container (Pod Security, restricted)', () => {
    const deployment = orders() as KubeObject & Pod;
    const pod = {
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'privileged', namespace: NAMESPACE },
      spec: {
        ...deployment.spec.template.spec,
        containers: [
          { ...deployment.spec.template.spec.containers[0], securityContext: { privileged: true } },
        ],
      },
    } as unknown as KubeObject;
    const { status, said } = refusal(pod);
    expect(status).not.toBe(0);
    expect(said).toMatch(/violates PodSecurity "restricted:latest"/);
  });

  it('refuses a Deployment whose selector does not select its pods', () => {
    const deployment = orders() as KubeObject & Pod;
    deployment.spec.template.metadata.labels = { 'app.kubernetes.io/name': 'not-orders' };
    const { status, said } = refusal(deployment);
    expect(status).not.toBe(0);
    expect(said).toMatch(/`selector` does not match template `labels`/);
  });

  it('refuses a field it does not know', () => {
    const deployment = orders() as KubeObject & { spec: Record<string, unknown> };
    deployment.spec['replicaCount'] = 2;
    const { status, said } = refusal(deployment);
    expect(status).not.toBe(0);
    expect(said).toMatch(/\.spec\.replicaCount: field not declared in schema/);
  });
});
