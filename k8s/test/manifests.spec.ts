import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import {
  ENVIRONMENTS,
  type Container,
  type Environment,
  K8S_DIR,
  type KubeObject,
  type PodTemplate,
  REPO_ROOT,
  SCENES,
  UNITS,
  bytes,
  compareVersions,
  componentOf,
  key,
  kustomizationFolders,
  kustomize,
  kustomizeOrNothing,
  matches,
  podTemplateOf,
  tool,
  unitFolder,
  wholeFolder,
  workloadsOf,
} from './support/render';

const KONG_YML = join(REPO_ROOT, 'gateway', 'kong.yml');
const DOCKER_DIR = join(REPO_ROOT, 'docker');
const IMAGE_REGISTRY = 'registry.example.com/shop/';
const NAMESPACE = 'shop';
const PART_OF = { 'app.kubernetes.io/part-of': 'shop' };
/** shared-design: every container of the shop runs as this user and group. */
const SHOP_ID = 10001;

const ALL_FOLDERS = kustomizationFolders();
/** Units that serve HTTP behind Kong: the domain services and the front-ends. */
const ROUTED_UNITS = UNITS.filter((unit) =>
  workloadsOf(kustomizeOrNothing(unitFolder(unit))).some((workload) =>
    ['service', 'frontend'].includes(componentOf(workload) ?? ''),
  ),
);
const SERVICE_UNITS = ROUTED_UNITS.filter((unit) =>
  workloadsOf(kustomizeOrNothing(unitFolder(unit))).some((workload) => componentOf(workload) === 'service'),
);
/** Stateless parts: they scale with an HPA (the domain services, the front-ends and Kong). */
const SCALED_UNITS = UNITS.filter((unit) =>
  kustomizeOrNothing(unitFolder(unit)).some((object) => object.kind === 'Deployment'),
);
/** The deployables with their own version (shared-design): where their package.json lives. */
const packageDirOf = (unit: string) => (SERVICE_UNITS.includes(unit) ? `services/${unit}` : unit);
const versionOf = (unit: string) =>
  (
    JSON.parse(readFileSync(join(REPO_ROOT, packageDirOf(unit), 'package.json'), 'utf8')) as {
      version: string;
    }
  ).version;

const resourcesOf = (folder: string) =>
  (parse(readFileSync(join(K8S_DIR, folder, 'kustomization.yaml'), 'utf8')) as { resources?: string[] })
    .resources ?? [];

/** The first container of a unit's Deployment. */
function mainContainerOf(
  unit: string,
  environment?: Environment,
): { container: Container; pod: PodTemplate } {
  const deployment = kustomize(unitFolder(unit, environment)).find((object) => object.kind === 'Deployment');
  if (!deployment) throw new Error(`k8s/${unitFolder(unit, environment)} has no Deployment`);
  const pod = podTemplateOf(deployment);
  const container = pod.spec.containers[0];
  if (!container) throw new Error(`${key(deployment)} has no container`);
  return { container, pod };
}
const envOf = (container: Container, name: string) =>
  container.env?.find((variable) => variable.name === name);
const imageTagOf = (unit: string, environment?: Environment) =>
  mainContainerOf(unit, environment).container.image.split(':').at(-1) ?? '';

describe('kustomize folders', () => {
  it('finds the standalone kustomize that ensure-tools installs', () => {
    expect(existsSync(tool('kustomize'))).toBe(true);
  });

  it.each(ALL_FOLDERS)('k8s/%s builds with a plain `kustomize build`', (folder) => {
    expect(kustomize(folder).length).toBeGreaterThan(0);
  });

  it('has a base and the dev and prod overlays', () => {
    expect(ALL_FOLDERS).toEqual(expect.arrayContaining(['base', 'overlays/dev', 'overlays/prod']));
  });

  it.each(SCENES)('$scene: the whole composes every unit', ({ environment }) => {
    expect([...resourcesOf(wholeFolder(environment))].sort()).toEqual(UNITS);
  });

  it.each(ENVIRONMENTS)('%s: each unit overlay builds on its base unit', (environment) => {
    for (const unit of UNITS) {
      expect(resourcesOf(unitFolder(unit, environment)), unit).toEqual([`../../../base/${unit}`]);
    }
  });

  it.each(SCENES)(
    '$scene: renders each object identically whether its unit is deployed alone or with the whole shop',
    ({ environment }) => {
      const whole = new Map(kustomize(wholeFolder(environment)).map((object) => [key(object), object]));
      const alone = UNITS.flatMap((unit) => kustomize(unitFolder(unit, environment)));
      expect(alone.map(key).sort()).toEqual([...whole.keys()].sort());
      for (const object of alone) expect(whole.get(key(object)), key(object)).toEqual(object);
    },
  );

  it.each(SCENES.flatMap(({ scene, environment }) => UNITS.map((unit) => ({ scene, environment, unit }))))(
    '$scene: k8s/$unit puts everything in the shop namespace with the common labels',
    ({ environment, unit }) => {
      for (const object of kustomize(unitFolder(unit, environment))) {
        if (object.kind === 'Namespace') expect(object.metadata.name).toBe(NAMESPACE);
        else expect(object.metadata.namespace, key(object)).toBe(NAMESPACE);
        expect(object.metadata.labels, key(object)).toMatchObject(PART_OF);
      }
      for (const workload of workloadsOf(kustomize(unitFolder(unit, environment)))) {
        expect(podTemplateOf(workload).metadata.labels, key(workload)).toMatchObject(PART_OF);
      }
    },
  );
});

describe('workloads', () => {
  const workloads = SCENES.flatMap(({ scene, environment }) =>
    UNITS.flatMap((unit) =>
      workloadsOf(kustomizeOrNothing(unitFolder(unit, environment))).map((workload) => ({
        name: `${scene}: ${unit}: ${key(workload)}`,
        unit,
        environment,
        workload,
        pod: podTemplateOf(workload),
      })),
    ),
  );
  const containers = workloads.flatMap(({ name, unit, pod }) =>
    pod.spec.containers.map((container) => ({
      name: `${name} container ${container.name}`,
      unit,
      container,
      pod: pod.spec,
    })),
  );

  it('includes a Deployment for every domain service and front-end', () => {
    expect(ROUTED_UNITS).toEqual(
      expect.arrayContaining([
        'products',
        'orders',
        'users',
        'wallet',
        'data',
        'media',
        'shell',
        'mf-catalog',
        'mf-checkout',
        'mf-admin',
      ]),
    );
  });

  it.each(containers)('$name has readiness and liveness probes', ({ container }) => {
    expect(container.readinessProbe).toBeDefined();
    expect(container.livenessProbe).toBeDefined();
  });

  it.each(containers)(
    '$name requests and limits CPU, memory and ephemeral storage, enough for its emptyDir volumes',
    ({ container, pod }) => {
      for (const bound of [container.resources?.requests, container.resources?.limits]) {
        expect(bound).toMatchObject({
          cpu: expect.any(String),
          memory: expect.any(String),
          'ephemeral-storage': expect.any(String),
        });
      }
      const scratch = (pod.volumes ?? [])
        .filter((volume) => volume.emptyDir)
        .map((volume) => {
          expect(volume.emptyDir?.sizeLimit, `emptyDir ${volume.name} has a sizeLimit`).toBeDefined();
          return bytes(volume.emptyDir?.sizeLimit ?? '0');
        })
        .reduce((sum, size) => sum + size, 0);
      expect(bytes(container.resources?.limits?.['ephemeral-storage'] ?? '0')).toBeGreaterThanOrEqual(
        scratch,
      );
    },
  );

  it.each(containers)(
    '$name meets the restricted Pod Security Standard as user and group 10001',
    ({ container, pod }) => {
      const effective = { ...pod.securityContext, ...container.securityContext };
      expect(effective.runAsNonRoot).toBe(true);
      expect(effective.runAsUser, 'numeric, so the kubelet can verify runAsNonRoot').toBe(SHOP_ID);
      expect(effective.runAsGroup).toBe(SHOP_ID);
      expect(pod.securityContext?.fsGroup).toBe(SHOP_ID);
      expect(effective.seccompProfile?.type).toBe('RuntimeDefault');
      expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
      expect(container.securityContext?.capabilities?.drop).toContain('ALL');
      expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
    },
  );

  it.each(containers)('$name uses a pinned image, ours from the shop registry', ({ container, unit }) => {
    const [, tag] = /^[^@]+:([^:/@]+)$/.exec(container.image) ?? [];
    expect(tag, `${container.image} has no tag`).toBeDefined();
    expect(tag).not.toBe('latest');
    if (container.image.startsWith(IMAGE_REGISTRY)) {
      expect(container.image.slice(IMAGE_REGISTRY.length).split(':')[0]).toBe(unit);
    }
  });

  it.each(workloads)(
    '$name runs as a ServiceAccount of its own unit, with no API token mounted',
    ({ unit, environment, pod }) => {
      const name = pod.spec.serviceAccountName;
      expect(name, 'a ServiceAccount of its own, not "default"').toBe(unit);
      const account = kustomize(unitFolder(unit, environment)).find(
        (object) => object.kind === 'ServiceAccount' && object.metadata.name === name,
      );
      expect(account, `k8s/${unitFolder(unit, environment)} declares ServiceAccount ${name}`).toBeDefined();
      expect(account?.automountServiceAccountToken).toBe(false);
      expect(pod.spec.automountServiceAccountToken).toBe(false);
    },
  );

  it.each(workloads)(
    '$name keeps its replicas on different nodes (preferred pod anti-affinity)',
    ({ pod }) => {
      const terms = (pod.spec.affinity?.podAntiAffinity?.preferredDuringSchedulingIgnoredDuringExecution ??
        []) as {
        podAffinityTerm: { topologyKey: string; labelSelector: { matchLabels: Record<string, string> } };
      }[];
      expect(
        terms.some(
          ({ podAffinityTerm }) =>
            podAffinityTerm.topologyKey === 'kubernetes.io/hostname' &&
            matches(podAffinityTerm.labelSelector.matchLabels, pod.metadata.labels),
        ),
      ).toBe(true);
    },
  );

  const scaled = SCENES.flatMap(({ scene, environment }) =>
    SCALED_UNITS.map((unit) => ({ scene, environment, unit })),
  );

  it('scales every stateless part: the services, the front-ends and Kong', () => {
    expect(SCALED_UNITS).toEqual(expect.arrayContaining([...ROUTED_UNITS, 'kong']));
  });

  it.each(scaled)(
    '$scene: k8s/$unit is scaled by an autoscaling/v2 HPA from 2 replicas at least, the Deployment fixing none, guarded by a PodDisruptionBudget',
    ({ environment, unit }) => {
      const objects = kustomize(unitFolder(unit, environment));
      const [deployment, ...others] = objects.filter((object) => object.kind === 'Deployment');
      expect(others).toHaveLength(0);
      if (!deployment) throw new Error(`k8s/${unit} has no Deployment`);
      expect(deployment.spec?.replicas, 'an apply must not reset what the HPA chose').toBeUndefined();
      const hpa = objects.find((object) => object.kind === 'HorizontalPodAutoscaler');
      expect(hpa?.apiVersion).toBe('autoscaling/v2');
      expect(hpa?.spec?.scaleTargetRef).toEqual({
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        name: deployment.metadata.name,
      });
      expect(hpa?.spec?.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa?.spec?.maxReplicas).toBeGreaterThan(hpa?.spec?.minReplicas ?? 0);
      const budget = objects.find((object) => object.kind === 'PodDisruptionBudget');
      expect(matches(budget?.spec?.selector?.matchLabels, podTemplateOf(deployment).metadata.labels)).toBe(
        true,
      );
      // A budget that never blocks a drain, whatever the HPA scaled to.
      expect(budget?.spec?.maxUnavailable).toBe(1);
    },
  );

  it.each(SCALED_UNITS)('k8s/%s may run more replicas in prod than in dev, never fewer', (unit) => {
    const bounds = (environment: Environment) =>
      kustomize(unitFolder(unit, environment)).find((object) => object.kind === 'HorizontalPodAutoscaler')
        ?.spec;
    expect(bounds('prod')?.minReplicas).toBeGreaterThanOrEqual(bounds('dev')?.minReplicas ?? Infinity);
    expect(bounds('prod')?.maxReplicas).toBeGreaterThan(bounds('dev')?.maxReplicas ?? Infinity);
  });

  it.each(SCENES.flatMap(({ scene, environment }) => UNITS.map((unit) => ({ scene, environment, unit }))))(
    '$scene: k8s/$unit: each Service selects its pods and targets a port they declare',
    ({ environment, unit }) => {
      const objects = kustomize(unitFolder(unit, environment));
      for (const service of objects.filter((object) => object.kind === 'Service')) {
        const selected = workloadsOf(objects).filter((workload) =>
          matches(service.spec?.selector, podTemplateOf(workload).metadata.labels),
        );
        expect(selected.length, `${key(service)} selects no pods`).toBeGreaterThan(0);
        const declared = selected.flatMap((workload) =>
          podTemplateOf(workload).spec.containers.flatMap((container) => container.ports ?? []),
        );
        for (const port of service.spec?.ports ?? []) {
          const target = port.targetPort ?? port.port;
          expect(
            declared.some((candidate) => candidate.name === target || candidate.containerPort === target),
            `${key(service)} port ${port.port} targets ${target}, which no container declares`,
          ).toBe(true);
        }
      }
    },
  );
});

describe('releases', () => {
  it.each(ROUTED_UNITS)(
    "prod runs k8s/%s from its own image at exactly its package.json's version",
    (unit) => {
      expect(mainContainerOf(unit, 'prod').container.image).toBe(
        `${IMAGE_REGISTRY}${unit}:${versionOf(unit)}`,
      );
    },
  );

  it.each(ROUTED_UNITS)('dev pins k8s/%s to a released version of its own image', (unit) => {
    expect(mainContainerOf(unit, 'dev').container.image).toMatch(
      new RegExp(`^${IMAGE_REGISTRY.replaceAll('.', '\\.')}${unit}:\\d+\\.\\d+\\.\\d+$`),
    );
  });
});

describe('domain services', () => {
  const natsClientPort = () =>
    kustomize(unitFolder('nats'))
      .find((object) => object.kind === 'Service' && object.metadata.name === 'nats')
      ?.spec?.ports?.find((port) => port.name === 'client')?.port;

  it.each(SERVICE_UNITS)(
    'k8s/%s takes settings from its ConfigMap and MONGO_URL from a Secret only',
    (unit) => {
      const objects = kustomize(unitFolder(unit));
      const container = podTemplateOf(objects.find((object) => object.kind === 'Deployment')!).spec
        .containers[0]!;
      const configMapName = container.envFrom?.[0]?.configMapRef?.name;
      const config = objects.find(
        (object) => object.kind === 'ConfigMap' && object.metadata.name === configMapName,
      );
      expect(config, `k8s/${unit}'s ConfigMap ${configMapName}`).toBeDefined();
      expect(config?.metadata.name, 'hash suffix: a change rolls the pods').toMatch(
        new RegExp(`^${unit}-config-\\w+$`),
      );
      expect(Number(config?.data?.PORT)).toBe(
        container.ports?.find((port) => port.name === 'http')?.containerPort,
      );
      expect(config?.data?.NATS_URL).toBe(`nats://nats:${natsClientPort()}`);
      expect(config?.data?.NODE_ENV).toBe('production');
      expect(config?.data).not.toHaveProperty('MONGO_URL');
      expect(
        container.env?.find((variable) => variable.name === 'MONGO_URL')?.valueFrom?.secretKeyRef,
      ).toEqual({
        name: `${unit}-mongodb`,
        key: 'MONGO_URL',
      });
    },
  );

  it.each(SERVICE_UNITS)("k8s/%s has a development Secret naming the service's own database", (unit) => {
    const secret = kustomize('examples/dev-secrets').find(
      (object) => object.kind === 'Secret' && object.metadata.name === `${unit}-mongodb`,
    );
    const url = Buffer.from(secret?.data?.MONGO_URL ?? '', 'base64').toString('utf8');
    expect(new URL(url).pathname).toBe(`/${unit}`);
    expect(new URL(url).searchParams.get('replicaSet')).toBe('rs0');
  });

  it.each(SERVICE_UNITS)(
    'k8s/%s verifies tokens with the public key of the ConfigMap jwt-public-key',
    (unit) => {
      const { container } = mainContainerOf(unit);
      expect(envOf(container, 'JWT_PUBLIC_KEY')?.valueFrom?.configMapKeyRef).toEqual({
        name: 'jwt-public-key',
        key: 'JWT_PUBLIC_KEY',
      });
    },
  );

  it.each(SERVICE_UNITS.filter((unit) => unit !== 'users'))(
    'k8s/%s is not given the signing key: only the users service issues tokens',
    (unit) => {
      const { container } = mainContainerOf(unit);
      const names = (container.env ?? []).map((variable) => variable.name);
      expect(names).not.toContain('JWT_PRIVATE_KEY');
      expect(names).not.toContain('JWT_PRIVATE_KEY_FILE');
      const secrets = (container.env ?? []).map((variable) => variable.valueFrom?.secretKeyRef?.name);
      expect(secrets).not.toContain('users-secrets');
    },
  );
});

describe('users service', () => {
  /** What the service refuses to start without in production (services/users/src/config/users.config.ts). */
  const REQUIRED_SECRETS = ['JWT_PRIVATE_KEY', 'ADMIN_EMAIL', 'ADMIN_PASSWORD'];

  it('takes its signing key and the admin it seeds from the Secret users-secrets, none optional', () => {
    const { container } = mainContainerOf('users');
    for (const name of REQUIRED_SECRETS) {
      const reference = envOf(container, name)?.valueFrom?.secretKeyRef;
      expect(reference, name).toMatchObject({ name: 'users-secrets', key: name });
      expect(reference?.optional ?? false, `${name} must not be optional`).toBe(false);
    }
  });

  it('takes SMTP_URL (it carries the relay credentials) from users-secrets, optionally', () => {
    const { container } = mainContainerOf('users');
    expect(envOf(container, 'SMTP_URL')?.valueFrom?.secretKeyRef).toEqual({
      name: 'users-secrets',
      key: 'SMTP_URL',
      optional: true,
    });
  });

  it('keeps every secret out of its ConfigMap', () => {
    const objects = kustomize(unitFolder('users'));
    const config = objects.find((object) => object.kind === 'ConfigMap');
    expect(config?.metadata.name).toMatch(/^users-config-\w+$/);
    for (const name of [...REQUIRED_SECRETS, 'SMTP_URL', 'MONGO_URL']) {
      expect(config?.data, name).not.toHaveProperty(name);
    }
  });

  it('writes the mail outbox (used without SMTP_URL) into a writable emptyDir', () => {
    const { container, pod } = mainContainerOf('users');
    expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
    const config = kustomize(unitFolder('users')).find(
      (object) =>
        object.kind === 'ConfigMap' && object.metadata.name === container.envFrom?.[0]?.configMapRef?.name,
    );
    const outbox = config?.data?.MAIL_OUTBOX_DIR;
    expect(outbox, 'MAIL_OUTBOX_DIR is set').toBeDefined();
    const mount = container.volumeMounts?.find(
      (volumeMount) => outbox === volumeMount.mountPath || outbox?.startsWith(`${volumeMount.mountPath}/`),
    );
    expect(mount, `${outbox} lies in a mounted volume`).toBeDefined();
    expect(pod.spec.volumes?.find((volume) => volume.name === mount?.name)?.emptyDir).toBeDefined();
  });

  it('has no committed users-secrets: the README creates it, with every key the service needs', () => {
    expect(
      kustomize('examples/dev-secrets').some(
        (object) => object.kind === 'Secret' && object.metadata.name === 'users-secrets',
      ),
    ).toBe(false);
    const readme = readFileSync(join(K8S_DIR, 'README.md'), 'utf8');
    const start = readme.indexOf('create secret generic users-secrets');
    expect(start, 'k8s/README.md shows how to create users-secrets').toBeGreaterThanOrEqual(0);
    const command = readme.slice(start, readme.indexOf('```', start));
    const keys = [...command.matchAll(/--from-(?:file|literal)=(\w+)=/g)].map((match) => match[1]);
    expect(keys).toEqual(expect.arrayContaining(REQUIRED_SECRETS));
    expect(command).toContain('--from-file=JWT_PRIVATE_KEY=');
  });

  it('no manifest here holds a private key', () => {
    for (const folder of ALL_FOLDERS) {
      const text = kustomize(folder)
        .flatMap((object) => [
          JSON.stringify(object),
          ...Object.values(object.data ?? {}).map((value) =>
            object.kind === 'Secret' ? Buffer.from(value, 'base64').toString('utf8') : value,
          ),
        ])
        .join('\n');
      expect(text, `k8s/${folder}`).not.toMatch(/PRIVATE KEY-----/);
    }
  });
});

describe('network policies', () => {
  const policiesOf = (objects: KubeObject[]) => objects.filter((object) => object.kind === 'NetworkPolicy');
  const namespacePolicies = () => policiesOf(kustomize(unitFolder('namespace')));
  /** A rule's port as a number, resolving a named port on the pods it applies to. */
  const portNumber = (port: string | number | undefined, pods: KubeObject[]) =>
    typeof port === 'number'
      ? port
      : pods
          .flatMap((workload) => podTemplateOf(workload).spec.containers.flatMap((c) => c.ports ?? []))
          .find((declared) => declared.name === port)?.containerPort;

  it('the namespace denies all ingress and egress of every pod by default', () => {
    const deny = namespacePolicies().find((policy) => policy.metadata.name === 'default-deny');
    expect(deny?.spec?.podSelector).toEqual({});
    expect(deny?.spec?.policyTypes).toEqual(['Ingress', 'Egress']);
    expect(deny?.spec?.ingress ?? []).toEqual([]);
    expect(deny?.spec?.egress ?? []).toEqual([]);
  });

  it('the namespace lets every pod reach the cluster DNS over UDP and TCP, and nothing else', () => {
    const dns = namespacePolicies().find((policy) => policy.metadata.name === 'allow-dns');
    expect(dns?.spec?.podSelector).toEqual({});
    expect(dns?.spec?.policyTypes).toEqual(['Egress']);
    expect(dns?.spec?.egress).toEqual([
      {
        to: [
          {
            namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'kube-system' } },
            podSelector: { matchLabels: { 'k8s-app': 'kube-dns' } },
          },
        ],
        ports: [
          { protocol: 'UDP', port: 53 },
          { protocol: 'TCP', port: 53 },
        ],
      },
    ]);
  });

  const workloadUnits = UNITS.filter((unit) => workloadsOf(kustomizeOrNothing(unitFolder(unit))).length > 0);

  it.each(workloadUnits)(
    'k8s/%s limits both directions of its pods itself, so they stay closed when deployed alone',
    (unit) => {
      const objects = kustomize(unitFolder(unit));
      for (const workload of workloadsOf(objects)) {
        const own = policiesOf(objects).filter((policy) =>
          matches(policy.spec?.podSelector?.matchLabels, podTemplateOf(workload).metadata.labels),
        );
        expect(own.flatMap((policy) => policy.spec?.policyTypes ?? []).sort(), key(workload)).toEqual([
          'Egress',
          'Ingress',
        ]);
      }
    },
  );

  it("admits anyone to Kong's proxy port, and nothing else of it", () => {
    const policy = policiesOf(kustomize(unitFolder('kong')))[0];
    expect(policy?.spec?.ingress).toEqual([{ ports: [{ port: 'proxy' }] }]);
  });

  it.each(ROUTED_UNITS)('k8s/%s admits HTTP from Kong only', (unit) => {
    const [policy, ...others] = policiesOf(kustomize(unitFolder(unit)));
    expect(others).toHaveLength(0);
    expect(policy?.spec?.ingress).toEqual([
      {
        from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'kong' } } }],
        ports: [{ port: 'http' }],
      },
    ]);
  });

  it.each(SCENES)(
    "$scene: each egress rule to the shop's pods names pods that exist, on ports they declare, and that their own policies admit",
    ({ environment }) => {
      const whole = kustomize(wholeFolder(environment));
      const policies = policiesOf(whole);
      const podsMatching = (selector: Record<string, string> | undefined) =>
        workloadsOf(whole).filter((workload) => matches(selector, podTemplateOf(workload).metadata.labels));
      let checked = 0;
      for (const policy of policies) {
        const selector = policy.spec?.podSelector?.matchLabels;
        const sources = selector ? podsMatching(selector) : workloadsOf(whole);
        expect(sources.length, `${key(policy)} selects no pods`).toBeGreaterThan(0);
        for (const rule of policy.spec?.egress ?? []) {
          for (const peer of rule.to ?? []) {
            if (!peer.podSelector || peer.namespaceSelector || peer.ipBlock) continue;
            const targets = podsMatching(peer.podSelector.matchLabels);
            const what = `${key(policy)} egress to ${JSON.stringify(peer.podSelector.matchLabels)}`;
            expect(targets.length, `${what} selects no pods`).toBeGreaterThan(0);
            for (const { port } of rule.ports ?? []) {
              for (const target of targets) {
                const number = portNumber(port, [target]);
                expect(number, `${what}: port ${port} is not declared by ${key(target)}`).toBeDefined();
                const admitted = policies
                  .filter(
                    (other) =>
                      other.spec?.policyTypes?.includes('Ingress') &&
                      matches(other.spec.podSelector?.matchLabels, podTemplateOf(target).metadata.labels),
                  )
                  .some((other) =>
                    (other.spec?.ingress ?? []).some(
                      (ingress) =>
                        (ingress.from ?? []).some((from) =>
                          sources.every(
                            (source) =>
                              !!from.podSelector &&
                              (Object.keys(from.podSelector.matchLabels ?? {}).length === 0 ||
                                matches(from.podSelector.matchLabels, podTemplateOf(source).metadata.labels)),
                          ),
                        ) &&
                        (ingress.ports ?? []).some(
                          (ingressPort) => portNumber(ingressPort.port, [target]) === number,
                        ),
                    ),
                  );
                expect(admitted, `${what}: ${key(target)}'s NetworkPolicy refuses port ${port}`).toBe(true);
                checked += 1;
              }
            }
          }
        }
      }
      // Kong to 10 routed parts, 6 services to MongoDB and NATS, MongoDB to itself.
      expect(checked).toBeGreaterThanOrEqual(10 + 6 * 2 + 1);
    },
  );

  it.each(SERVICE_UNITS)('k8s/%s may connect to MongoDB and NATS', (unit) => {
    const egress = policiesOf(kustomize(unitFolder(unit)))[0]?.spec?.egress ?? [];
    const reaches = (name: string, port: string) =>
      egress.some(
        (rule) =>
          rule.to?.some((peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] === name) &&
          rule.ports?.some((rulePort) => rulePort.port === port),
      );
    expect(reaches('mongodb', 'mongodb')).toBe(true);
    expect(reaches('nats', 'client')).toBe(true);
  });

  it('lets only the users service reach SMTP outside the cluster', () => {
    const outside = (unit: string) =>
      (policiesOf(kustomize(unitFolder(unit)))[0]?.spec?.egress ?? []).filter((rule) =>
        rule.to?.some((peer) => peer.ipBlock),
      );
    const [smtp, ...others] = outside('users');
    expect(others).toHaveLength(0);
    expect(smtp?.to?.map((peer) => peer.ipBlock?.cidr)).toEqual(['0.0.0.0/0', '::/0']);
    expect(smtp?.ports?.map((port) => port.port).sort()).toEqual([25, 465, 587]);
    expect(smtp?.ports?.every((port) => port.protocol === 'TCP')).toBe(true);
    for (const unit of UNITS.filter((other) => other !== 'users')) expect(outside(unit), unit).toEqual([]);
  });
});

describe('Kong routes and Kubernetes Services', () => {
  function kongServices(): Map<string, number> {
    if (!existsSync(KONG_YML)) {
      throw new Error(
        `${KONG_YML} is missing: k8s/base/kong deploys it and these tests check the Services against it`,
      );
    }
    const document = parse(readFileSync(KONG_YML, 'utf8')) as {
      services?: { name: string; url?: string; host?: string; port?: number; protocol?: string }[];
    };
    const hosts = new Map<string, number>();
    for (const service of document.services ?? []) {
      if (service.url) {
        const url = new URL(service.url);
        hosts.set(url.hostname, Number(url.port || (url.protocol === 'https:' ? 443 : 80)));
      } else if (service.host) {
        hosts.set(service.host, service.port ?? (service.protocol === 'https' ? 443 : 80));
      }
    }
    return hosts;
  }
  const servicePorts = (unit: string, name: string) =>
    kustomize(unitFolder(unit))
      .filter((object) => object.kind === 'Service' && object.metadata.name === name)
      .flatMap((object) => object.spec?.ports?.map((port) => port.port) ?? []);

  it('every Kong service host that has a unit here has a Service of that exact name and port', () => {
    const deployed = [...kongServices()].filter(([host]) => UNITS.includes(host));
    expect(deployed.length).toBeGreaterThan(0);
    for (const [host, port] of deployed) {
      expect(servicePorts(host, host), `k8s/base/${host} Service "${host}"`).toContain(port);
    }
  });

  it('every routed unit here is a Kong service host with the same port', () => {
    const hosts = kongServices();
    for (const unit of ROUTED_UNITS) {
      expect(hosts.has(unit), `gateway/kong.yml has no service with host "${unit}"`).toBe(true);
      expect(servicePorts(unit, unit)).toContain(hosts.get(unit));
    }
  });

  it.each(SCENES)(
    '$scene: Kong loads exactly gateway/kong.yml as its declarative configuration',
    ({ environment }) => {
      const objects = kustomize(unitFolder('kong', environment));
      const deployment = objects.find((object) => object.kind === 'Deployment');
      const pod = podTemplateOf(deployment!).spec;
      const configMapName = pod.volumes?.find((volume) => volume.configMap)?.configMap?.name;
      expect(configMapName, 'hash suffix: a change of kong.yml rolls Kong').toMatch(
        /^kong-declarative-config-\w+$/,
      );
      const configMap = objects.find(
        (object) => object.kind === 'ConfigMap' && object.metadata.name === configMapName,
      );
      expect(configMap?.data?.['kong.yml']).toBe(readFileSync(KONG_YML, 'utf8'));

      const kong = pod.containers[0]!;
      const env = Object.fromEntries((kong.env ?? []).map((variable) => [variable.name, variable.value]));
      expect(env.KONG_DATABASE).toBe('off');
      const mount = kong.volumeMounts?.find((volumeMount) =>
        pod.volumes?.some((v) => v.name === volumeMount.name && v.configMap),
      );
      expect(env.KONG_DECLARATIVE_CONFIG).toBe(`${mount?.mountPath}/kong.yml`);
    },
  );

  it('k8s/base/kong exposes the proxy on port 80 of a LoadBalancer', () => {
    const objects = kustomize(unitFolder('kong'));
    const service = objects.find((object) => object.kind === 'Service') as KubeObject & {
      spec: { type: string };
    };
    expect(service.spec.type).toBe('LoadBalancer');
    expect(service.spec.ports?.[0]).toMatchObject({ port: 80, targetPort: 'proxy' });
    const proxyPort = podTemplateOf(
      objects.find((object) => object.kind === 'Deployment')!,
    ).spec.containers[0]?.ports?.find((port) => port.name === 'proxy')?.containerPort;
    expect(proxyPort).toBe(8000);
  });
});

describe('shell: remotes manifest and release per environment', () => {
  const REMOTES = { catalog: 'mf-catalog', checkout: 'mf-checkout', admin: 'mf-admin' } as const;
  const folderOf = (environment?: Environment) =>
    environment ? `overlays/${environment}/shell` : 'base/shell';

  /** The ConfigMap mounted at a path of the shell's container, and the mount. */
  function mountedConfigMap(environment: Environment | undefined, mountPath: string) {
    const objects = kustomize(unitFolder('shell', environment));
    const pod = podTemplateOf(objects.find((object) => object.kind === 'Deployment')!).spec;
    const mount = pod.containers[0]?.volumeMounts?.find((volumeMount) => volumeMount.mountPath === mountPath);
    const name = pod.volumes?.find((volume) => volume.name === mount?.name)?.configMap?.name;
    const configMap = objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name === name);
    return { mount, name, data: configMap?.data ?? {} };
  }

  function remotesOf(environment?: Environment) {
    const { mount, name, data } = mountedConfigMap(environment, '/usr/share/nginx/html/remotes.json');
    expect(mount?.subPath, 'remotes.json is mounted over the built one').toBe('remotes.json');
    // A subPath mount never sees ConfigMap updates: the hash suffix turns each change into a rollout.
    expect(name).toMatch(/^shell-remotes-\w+$/);
    return { name, data, remotes: JSON.parse(data['remotes.json'] ?? '') as unknown };
  }

  it.each(SCENES)(
    "$scene: remotes.json (schema 2) names each remote's version, at that version's own path",
    ({ environment }) => {
      const { remotes } = remotesOf(environment);
      expect(remotes).toMatchObject({ schemaVersion: 2 });
      const entries = (remotes as { remotes: Record<string, { version: string; url: string }> }).remotes;
      expect(Object.keys(entries).sort()).toEqual(Object.keys(REMOTES).sort());
      for (const [name, entry] of Object.entries(entries)) {
        expect(entry.version).toMatch(/^\d+\.\d+\.\d+$/);
        expect(entry.url).toBe(`/remotes/${name}/${entry.version}/mf-manifest.json`);
      }
    },
  );

  it.each(ENVIRONMENTS)(
    "%s: remotes.json is the overlay's own file, the base's site.json kept",
    (environment) => {
      const { data } = remotesOf(environment);
      expect(data['remotes.json']).toBe(
        readFileSync(join(K8S_DIR, folderOf(environment), 'remotes.json'), 'utf8'),
      );
      expect(data['site.json']).toBe(readFileSync(join(K8S_DIR, 'base', 'shell', 'site.json'), 'utf8'));
    },
  );

  it.each(ENVIRONMENTS)(
    '%s: points each remote at a version its deployed image has published (never ahead of it)',
    (environment) => {
      const { remotes } = remotesOf(environment);
      const entries = (remotes as { remotes: Record<keyof typeof REMOTES, { version: string }> }).remotes;
      for (const [name, unit] of Object.entries(REMOTES)) {
        const named = entries[name as keyof typeof REMOTES].version;
        expect(compareVersions(named, imageTagOf(unit, environment)), `${name} ${named}`).toBeLessThanOrEqual(
          0,
        );
      }
    },
  );

  it.each(SCENES)(
    "$scene: shell-release chooses a version of the shell's image, mounted where nginx includes it",
    ({ environment }) => {
      const { mount, name, data } = mountedConfigMap(environment, '/etc/nginx/shell-release');
      expect(mount?.subPath, 'a directory mount').toBeUndefined();
      expect(name).toMatch(/^shell-release-\w+$/);
      const [, version] =
        /^set \$shell_release "(\d+\.\d+\.\d+)";$/m.exec(data['shell-release.conf'] ?? '') ?? [];
      expect(version, 'shell-release.conf sets $shell_release').toBeDefined();
      expect(compareVersions(version!, imageTagOf('shell', environment))).toBeLessThanOrEqual(0);
      if (environment) {
        expect(data['shell-release.conf']).toBe(
          readFileSync(join(K8S_DIR, folderOf(environment), 'shell-release.conf'), 'utf8'),
        );
      }
    },
  );
});

describe('images built by docker/', () => {
  /** The numeric USER of a Dockerfile's last stage, and the ports it EXPOSEs. */
  function imageFacts(dockerfile: string) {
    const text = readFileSync(join(DOCKER_DIR, dockerfile), 'utf8');
    const lastStage = text.slice(text.lastIndexOf('\nFROM '));
    const user = /^USER (\d+):(\d+)$/m.exec(lastStage);
    const exposed = [...lastStage.matchAll(/^EXPOSE (\d+)$/gm)].map((match) => Number(match[1]));
    return { user: user ? { uid: Number(user[1]), gid: Number(user[2]) } : undefined, exposed };
  }

  it.each(ROUTED_UNITS)("k8s/base/%s runs its image's own non-root user and port", (unit) => {
    const deployment = kustomize(unitFolder(unit)).find((object) => object.kind === 'Deployment')!;
    const pod = podTemplateOf(deployment);
    const isFrontEnd = componentOf(deployment) === 'frontend';
    const facts = imageFacts(isFrontEnd ? 'frontend.Dockerfile' : 'service.Dockerfile');
    expect(facts.user, 'the image names its user by number').toBeDefined();
    expect(pod.spec.securityContext).toMatchObject({
      runAsUser: facts.user?.uid,
      runAsGroup: facts.user?.gid,
    });
    if (isFrontEnd) {
      const containerPort = pod.spec.containers[0]?.ports?.find(
        (port) => port.name === 'http',
      )?.containerPort;
      expect(facts.exposed).toContain(containerPort);
      // The shell's server block and the remotes' (docker/nginx), chosen by the Dockerfile per APP.
      const template = readFileSync(
        join(DOCKER_DIR, 'nginx', unit === 'shell' ? 'shell.conf.template' : 'remote.conf.template'),
        'utf8',
      );
      expect(template).toMatch(new RegExp(`^\\s*listen ${containerPort}\\b`, 'm'));
      if (unit === 'shell') {
        // nginx reads the release where the ConfigMap shell-release is mounted.
        const release = pod.spec.containers[0]?.volumeMounts?.find((mount) => mount.name === 'release');
        expect(template).toContain(`include ${release?.mountPath}/shell-release.conf;`);
      }
    }
  });
});
