import { spawn, spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { type ControlPlane, type ControlPlaneOptions, startControlPlane, toolPaths } from '@shop/infra';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ENVIRONMENTS,
  type Environment,
  K8S_DIR,
  type KubeObject,
  REPO_ROOT,
  UNITS,
  kustomize,
  tool,
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

const TEAM_LABEL = 'shop.example.com/team';
/** The platform's units (the namespace, NATS, MongoDB, Kong, the collector): applied by whoever runs the cluster. */
const PLATFORM = 'platform';

/** The team a unit belongs to: the label every object of its render carries (k8s/base/<unit>). */
function teamOf(unit: string): string {
  const teams = new Set(kustomize(unitFolder(unit)).map((object) => object.metadata.labels?.[TEAM_LABEL]));
  if (teams.size !== 1) throw new Error(`${unit}: its objects name ${[...teams].join(', ')} as their team`);
  return [...teams][0]!;
}

/** The teams that deploy units of their own, each with a pipeline identity in k8s/deploy-identities. */
const TEAMS = [...new Set(UNITS.map(teamOf))].filter((team) => team !== PLATFORM).sort();

/**
 * The deploy identities (k8s/deploy-identities), applied by the cluster's admin, and a kubeconfig per
 * team's pipeline: a token of its ServiceAccount, as its workflow's DEPLOY_KUBECONFIG holds one.
 */
function pipelines(cluster: ControlPlane): Map<string, string> {
  // Their Role lives in the shop's namespace: the namespace first, as the environment's apply makes it.
  for (const [folder, manager] of [
    [unitFolder('namespace'), 'environment'],
    ['deploy-identities', 'platform'],
  ] as const) {
    const answer = apply(cluster, kustomize(folder), manager);
    if (answer.status !== 0) throw new Error(answer.stderr);
  }
  return new Map(
    TEAMS.map((team) => {
      const token = cluster.kubectlOk(['create', 'token', team, '-n', 'shop-deploy', '--duration=1h']);
      return [team, cluster.kubeconfigFor(`pipeline-${team}`, token.trim())];
    }),
  );
}

/**
 * A control plane (started with `options`) with the CRDs the manifests use and each team's pipeline identity;
 * with `environment`, that environment applied whole, as whoever runs the cluster applies it. A failed start
 * stops the control plane.
 */
async function shopCluster(
  options: ControlPlaneOptions = {},
  environment?: Environment,
): Promise<{ cluster: ControlPlane; identities: Map<string, string> }> {
  const cluster = await startControlPlane(options);
  try {
    installCrds(cluster);
    const identities = pipelines(cluster);
    if (environment) {
      const answer = apply(cluster, kustomize(wholeFolder(environment)), 'environment');
      if (answer.status !== 0) throw new Error(answer.stderr);
    }
    return { cluster, identities };
  } catch (error) {
    await cluster.stop();
    throw error;
  }
}

/** Applies a unit as its team's pipeline does (the platform's units as the cluster's admin). */
function applyUnit(
  cluster: ControlPlane,
  identities: Map<string, string>,
  unit: string,
  objects: KubeObject[],
  options: { release?: boolean } = {},
) {
  return apply(cluster, objects, `team-${unit}`, { ...options, kubeconfig: identities.get(teamOf(unit)) });
}

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
  let identities: Map<string, string>;

  beforeAll(async () => {
    ({ cluster, identities } = await shopCluster());
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
    "lets each team's pipeline apply its own unit under its own field manager, taking no field of another team's",
    () => {
      const conflicts: string[] = [];
      for (const unit of UNITS) {
        const answer = applyUnit(cluster, identities, unit, kustomize(unitFolder(unit, environment)));
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
      const shipped = applyUnit(cluster, identities, 'orders', orders, { release: true });
      expect(shipped.status, shipped.stderr).toBe(0);
      const conflicts: string[] = [];
      for (const unit of UNITS.filter((each) => each !== 'orders')) {
        const answer = applyUnit(cluster, identities, unit, kustomize(unitFolder(unit, environment)));
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

  it(
    "refuses a team's pipeline every other team's objects, the platform's, and other teams' Secrets",
    () => {
      const accounts = kustomize('deploy-identities')
        .filter((object) => object.kind === 'ServiceAccount')
        .map((object) => object.metadata.name)
        .sort();
      expect(accounts).toEqual(TEAMS);
      // What the server would do, not done: --dry-run=server runs admission all the same.
      const as = (team: string, args: string[], input?: string) =>
        cluster.kubectl([...args, '--dry-run=server'], { kubeconfig: identities.get(team), input });
      const applied = (team: string, objects: KubeObject[]) =>
        as(team, ['apply', '--server-side', `--field-manager=team-${team}`, '-f', '-'], listOf(objects));

      const accepted: string[] = [];
      TEAMS.forEach((team, index) => {
        const other = TEAMS[(index + 1) % TEAMS.length]!;
        const unit = UNITS.find((each) => teamOf(each) === other)!;
        const answer = applied(team, kustomize(unitFolder(unit, environment)));
        if (answer.status === 0 || !answer.stderr.includes(`is not the ${team} team's`)) {
          accepted.push(`${team} applying ${unit}: ${answer.stderr.trim() || 'accepted'}`);
        }
      });
      expect(accepted).toEqual([]);

      const platform = applied(
        'orders',
        kustomize(unitFolder('namespace', environment)).filter((object) => object.kind === 'NetworkPolicy'),
      );
      expect(platform.status).not.toBe(0);
      expect(platform.stderr).toMatch(/NetworkPolicy\/default-deny is not the orders team's/);
      const deleted = as('orders', ['delete', 'service', 'products', '-n', NAMESPACE]);
      expect(deleted.status).not.toBe(0);
      expect(deleted.stderr).toMatch(/Service\/products is not the orders team's/);

      const disguised = applied('orders', [
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: { name: 'products-extra', namespace: NAMESPACE, labels: { [TEAM_LABEL]: 'products' } },
        },
      ]);
      expect(disguised.status).not.toBe(0);
      expect(disguised.stderr).toMatch(/ConfigMap\/products-extra would not be/);

      const deployment = structuredClone(
        kustomize(unitFolder('orders', environment)).find((object) => object.kind === 'Deployment')!,
      ) as KubeObject & { spec: { template: { spec: { containers: { env?: unknown[] }[] } } } };
      deployment.spec.template.spec.containers[0]!.env!.push({
        name: 'STOLEN',
        valueFrom: { secretKeyRef: { name: 'users-secrets', key: 'JWT_PRIVATE_KEY' } },
      });
      const stealing = applied('orders', [deployment]);
      expect(stealing.status).not.toBe(0);
      expect(stealing.stderr).toMatch(/Deployment\/orders reads a Secret that is not its team's/);

      const secrets = cluster.kubectl(['get', 'secrets', '-n', NAMESPACE], {
        kubeconfig: identities.get('orders'),
      });
      expect(secrets.status).not.toBe(0);
      expect(secrets.stderr).toMatch(/forbidden/i);
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
  let identities: Map<string, string>;

  beforeAll(async () => {
    ({ cluster, identities } = await shopCluster({ controllers: true, nodes: 3 }, 'dev'));
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

  /**
   * What every object not of `team`'s units asks for (its labels, annotations, spec and data, but the replica
   * count, which the autoscalers own and change as they please): what a release of that team must not
   * touch. Not resource versions: the other units' autoscalers and controllers keep writing those.
   */
  const othersOf = (team: string) => {
    const owners = ownersIn('dev');
    return Object.fromEntries(
      storedObjects(cluster)
        .filter((object) => {
          const unit = owners.get(`${object.kind}/${object.metadata.name}`);
          return unit === undefined || teamOf(unit) !== team;
        })
        .map((object) => {
          const { replicas: _replicas, ...spec } = ((object as { spec?: Record<string, unknown> }).spec ??
            {}) as Record<string, unknown>;
          const { labels, annotations } = object.metadata as {
            labels?: Record<string, string>;
            annotations?: Record<string, string>;
          };
          const { data } = object as { data?: unknown };
          return [
            `${object.kind}/${object.metadata.name}`,
            JSON.stringify({ labels, annotations, spec, data }),
          ];
        }),
    );
  };

  const imageOf = (deployment: string) =>
    cluster.kubectlOk([
      'get',
      'deployment',
      deployment,
      '-n',
      NAMESPACE,
      '-o',
      'jsonpath={.spec.template.spec.containers[0].image}',
    ]);

  /** tools/ship/deploy.mjs as the team's pipeline runs it: as its deploy identity. */
  const deployAs = (team: string, args: string[]) =>
    spawnSync(process.execPath, [join(REPO_ROOT, 'tools/ship/deploy.mjs'), ...args], {
      cwd: REPO_ROOT,
      encoding: 'utf8',
      timeout: 400_000,
      env: {
        ...process.env,
        KUBECONFIG: identities.get(team),
        KUBECTL: toolPaths().controlPlane.kubectl,
        KUSTOMIZE: tool('kustomize'),
      },
    });

  /**
   * Watches a Deployment's ready pods from now on: `stop` answers each change seen, as the pods it wants
   * and how many of them are available.
   */
  const watchAvailability = (deployment: string) => {
    const watcher = spawn(toolPaths().controlPlane.kubectl, [
      '--kubeconfig',
      cluster.kubeconfig,
      ...['get', 'deployment', deployment, '-n', NAMESPACE, '--watch', '--output'],
      'jsonpath={.spec.replicas} {.status.availableReplicas}{"\\n"}',
    ]);
    let seen = '';
    watcher.stdout.setEncoding('utf8').on('data', (chunk: string) => (seen += chunk));
    const started = new Promise<void>((resolve) => watcher.stdout.once('data', () => resolve()));
    return {
      started,
      stop: async () => {
        // What the watch printed while the caller blocked the event loop is read now.
        await new Promise((resolve) => setTimeout(resolve, 500));
        watcher.kill();
        return seen
          .trim()
          .split('\n')
          .map((line) => line.split(' ').map((count) => Number(count || 0)) as [number, number]);
      },
    };
  };

  it.each([
    { target: 'orders', deployments: ['orders'] },
    { target: 'mf-catalog', deployments: ['mf-catalog', 'mf-catalog-render'] },
  ])(
    "ships a new version of $target with its pipeline's command, within its disruption budget, and rolls it back, touching no other team's objects",
    async ({ target, deployments }) => {
      const team = teamOf(deployments[0]!);
      // Each Deployment of the release at its autoscaler's minimum first (the HPA raises a new one to it
      // within its sync period), so that a budget of one pod is a real bound.
      for (const name of deployments) {
        const minimum = Number(
          cluster.kubectlOk(['get', 'hpa', name, '-n', NAMESPACE, '-o', 'jsonpath={.spec.minReplicas}']),
        );
        expect(minimum).toBeGreaterThanOrEqual(2);
        cluster.kubectlOk(
          [
            'wait',
            `deployment/${name}`,
            '-n',
            NAMESPACE,
            `--for=jsonpath={.status.availableReplicas}=${minimum}`,
            '--timeout=120s',
          ],
          { timeoutMs: 130_000 },
        );
      }
      const before = othersOf(team);
      const watches = deployments.map(watchAvailability);
      await Promise.all(watches.map((watch) => watch.started));
      const shipped = deployAs(team, [target, 'dev', '--tag', '9.9.9', '--timeout', '180s']);
      expect(shipped.status, `${shipped.stdout}${shipped.stderr}`).toBe(0);
      for (const [index, name] of deployments.entries()) {
        // The unit's PodDisruptionBudget (maxUnavailable) held through the release: never fewer pods
        // available than it wants, less the budget.
        const budget = Number(
          cluster.kubectlOk(['get', 'pdb', name, '-n', NAMESPACE, '-o', 'jsonpath={.spec.maxUnavailable}']),
        );
        expect(budget).toBeGreaterThanOrEqual(1);
        const counts = await watches[index]!.stop();
        expect(counts.length, `${name}: changes seen during the release`).toBeGreaterThan(1);
        for (const [wanted, available] of counts)
          expect(available, name).toBeGreaterThanOrEqual(wanted - budget);
        expect(shipped.stdout).toContain(`deployment "${name}" successfully rolled out`);
        expect(imageOf(name)).toMatch(/:9\.9\.9$/);
        expect(
          cluster.kubectlOk(['rollout', 'undo', `deployment/${name}`, '-n', NAMESPACE], {
            kubeconfig: identities.get(team),
          }),
        ).toMatch(/rolled back/);
        expect(rolledOut('Deployment', name).status).toBe(0);
        expect(imageOf(name)).not.toMatch(/:9\.9\.9$/);
      }
      expect(othersOf(team)).toEqual(before);
    },
    400_000,
  );
});

describe('the domains released as canaries (Argo Rollouts) on a real API server', () => {
  let cluster: ControlPlane;
  let identities: Map<string, string>;
  const services = readdirSync(join(K8S_DIR, 'components', 'canary'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

  beforeAll(async () => {
    ({ cluster, identities } = await shopCluster({}, 'prod'));
  }, STARTUP_MS);

  afterAll(async () => {
    await cluster?.stop();
  });

  it('has a component for every domain service', () => {
    const domains = kustomize(wholeFolder('prod'))
      .filter(
        (object) =>
          object.kind === 'Deployment' &&
          object.metadata.labels?.['app.kubernetes.io/component'] === 'service',
      )
      .map((object) => object.metadata.name)
      .sort();
    expect(services).toEqual(domains);
  });

  it(
    "applies each domain's canary as its team's pipeline: the Rollout takes the Deployment over and the autoscaler follows it",
    () => {
      const refused: string[] = [];
      for (const service of services) {
        const canary = kustomize(`examples/canary/${service}`);
        const answer = applyUnit(cluster, identities, service, canary, { release: true });
        if (answer.status !== 0 || warningsOf(answer.stderr).length > 0) {
          refused.push(`${service}: ${answer.stderr.trim()}`);
        }
      }
      expect(refused).toEqual([]);
      for (const service of services) {
        const rollout = JSON.parse(
          cluster.kubectlOk(['get', 'rollout', service, '-n', NAMESPACE, '-o', 'json']),
        ) as KubeObject & {
          spec: { workloadRef: { kind: string; name: string }; strategy: { canary: { analysis: unknown } } };
        };
        expect(rollout.spec.workloadRef).toMatchObject({ kind: 'Deployment', name: service });
        expect(rollout.spec.strategy.canary.analysis).toEqual({
          templates: [{ templateName: `${service}-slo` }],
          startingStep: 1,
        });
        expect(
          cluster.kubectlOk([
            'get',
            'hpa',
            service,
            '-n',
            NAMESPACE,
            '-o',
            'jsonpath={.spec.scaleTargetRef.kind}',
          ]),
        ).toBe('Rollout');
      }
    },
    STEP_MS,
  );

  it("judges each canary by the checkout SLO's burn-rate rules that k8s/monitoring records", () => {
    const recorded = new Set(
      kustomize('monitoring')
        .filter((object) => object.kind === 'PrometheusRule')
        .flatMap(
          (rule) => (rule as unknown as { spec: { groups: { rules: { record?: string }[] }[] } }).spec.groups,
        )
        .flatMap((group) => group.rules.map((rule) => rule.record))
        .filter(Boolean),
    );
    for (const service of services) {
      const template = JSON.parse(
        cluster.kubectlOk(['get', 'analysistemplate', `${service}-slo`, '-n', NAMESPACE, '-o', 'json']),
      ) as { spec: { metrics: { name: string; provider: { prometheus: { query: string } } }[] } };
      const queries = template.spec.metrics.map((metric) => metric.provider.prometheus.query);
      expect(queries).toEqual(
        expect.arrayContaining([
          'shop:checkout_availability:error_ratio_rate5m',
          'shop:checkout_latency:error_ratio_rate5m',
        ]),
      );
      for (const query of queries.filter((each) => /^shop:[a-z_:0-9]+$/.test(each))) {
        expect(recorded, `${service}-slo queries ${query}`).toContain(query);
      }
    }
  });

  it('refuses a Rollout field the CRD does not declare', () => {
    const rollout = structuredClone(
      kustomize('examples/canary/orders').find((object) => object.kind === 'Rollout')!,
    ) as KubeObject & { spec: { strategy: { canary: Record<string, unknown> } } };
    rollout.spec.strategy.canary['stepz'] = [];
    const answer = cluster.kubectl(
      ['apply', '--server-side', '--dry-run=server', '--field-manager=team-orders', '-f', '-'],
      { input: JSON.stringify(rollout), kubeconfig: identities.get('orders') },
    );
    expect(answer.status).not.toBe(0);
    expect(answer.stderr).toMatch(/\.spec\.strategy\.canary\.stepz: field not declared in schema/);
  });
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
