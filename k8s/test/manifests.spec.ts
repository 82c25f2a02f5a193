import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';

const K8S_DIR = resolve(__dirname, '..');
const REPO_ROOT = resolve(K8S_DIR, '..');
const KONG_YML = join(REPO_ROOT, 'gateway', 'kong.yml');
const DOCKER_DIR = join(REPO_ROOT, 'docker');
const IMAGE_REGISTRY = 'registry.example.com/shop/';
const NAMESPACE = 'shop';
const PART_OF = { 'app.kubernetes.io/part-of': 'shop' };

/**
 * Folders whose kustomization reads a file outside itself (gateway/kong.yml) and so are rendered with
 * --load-restrictor LoadRestrictionsNone. Every other folder must build without it, so that its team
 * can deploy it with a plain `kubectl apply -k`.
 */
const READS_OUTSIDE_FILES = new Set(['.', 'kong']);

interface Probe {
  httpGet?: { path?: string; port: string | number };
  tcpSocket?: { port: string | number };
  exec?: { command: string[] };
}

interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  capabilities?: { drop?: string[] };
  seccompProfile?: { type: string };
}

interface Container {
  name: string;
  image: string;
  ports?: { name?: string; containerPort: number }[];
  env?: {
    name: string;
    value?: string;
    valueFrom?: {
      secretKeyRef?: { name: string; key: string; optional?: boolean };
      configMapKeyRef?: { name: string; key: string; optional?: boolean };
    };
  }[];
  envFrom?: { configMapRef?: { name: string } }[];
  readinessProbe?: Probe;
  livenessProbe?: Probe;
  resources?: {
    requests?: { cpu?: string; memory?: string };
    limits?: { cpu?: string; memory?: string };
  };
  securityContext?: SecurityContext;
  volumeMounts?: { name: string; mountPath: string; subPath?: string }[];
}

interface PodTemplate {
  metadata: { labels?: Record<string, string> };
  spec: {
    securityContext?: SecurityContext;
    containers: Container[];
    volumes?: { name: string; configMap?: { name: string }; emptyDir?: Record<string, unknown> }[];
  };
}

interface NetworkPolicyPeer {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: { matchLabels?: Record<string, string> };
  ipBlock?: { cidr: string; except?: string[] };
}

interface NetworkPolicyRule {
  to?: NetworkPolicyPeer[];
  from?: NetworkPolicyPeer[];
  ports?: { protocol?: string; port?: string | number }[];
}

interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  spec?: {
    replicas?: number;
    selector?: { matchLabels?: Record<string, string> } & Record<string, string>;
    template?: PodTemplate;
    ports?: { name?: string; port: number; targetPort?: string | number }[];
    podSelector?: { matchLabels?: Record<string, string> };
    policyTypes?: string[];
    ingress?: NetworkPolicyRule[];
    egress?: NetworkPolicyRule[];
  };
}

/**
 * What renders a folder: kubectl's built-in kustomize (KUBECTL, or kubectl on PATH), else the
 * standalone kustomize that `tools/infra/ensure-tools.mjs` builds on machines without kubectl.
 */
function findRenderer(): { command: string; args: string[] } {
  const chosen = process.env.KUBECTL;
  const kubectl = (
    chosen ? [chosen] : (process.env.PATH ?? '').split(':').map((dir) => join(dir, 'kubectl'))
  ).find((candidate) => existsSync(candidate));
  if (kubectl) return { command: kubectl, args: ['kustomize'] };
  const versions = JSON.parse(readFileSync(join(REPO_ROOT, 'tools', 'infra', 'versions.json'), 'utf8')) as {
    kustomize: string;
  };
  const toolsDir = process.env.SHOP_TOOLS_DIR || join(homedir(), '.cache', 'shop-tools');
  const standalone = join(toolsDir, `kustomize-${versions.kustomize}`, 'kustomize');
  if (existsSync(standalone)) return { command: standalone, args: ['build'] };
  throw new Error(
    `Neither kubectl (${chosen ? `KUBECTL=${chosen}` : 'on PATH'}) nor ${standalone} is there. ` +
      'Run `node tools/infra/ensure-tools.mjs --browser`, which builds kustomize when kubectl is missing.',
  );
}

const rendered = new Map<string, KubeObject[]>();

/** `kubectl kustomize` of a folder of k8s/ (relative path), parsed; throws with kubectl's own message. */
function kustomize(folder: string): KubeObject[] {
  const cached = rendered.get(folder);
  if (cached) return cached;
  const restrictor = READS_OUTSIDE_FILES.has(folder) ? ['--load-restrictor', 'LoadRestrictionsNone'] : [];
  const renderer = findRenderer();
  const result = spawnSync(renderer.command, [...renderer.args, ...restrictor, join(K8S_DIR, folder)], {
    encoding: 'utf8',
  });
  if (result.error) throw result.error;
  if (result.status !== 0) {
    throw new Error(`kubectl kustomize k8s/${folder} failed:\n${result.stderr}`);
  }
  const documents = parseAllDocuments(result.stdout);
  const objects = (Array.isArray(documents) ? documents : []).map((document) => {
    if (document.errors.length > 0) throw document.errors[0];
    return document.toJS() as KubeObject;
  });
  rendered.set(folder, objects);
  return objects;
}

function kustomizationFolders(dir = K8S_DIR): string[] {
  const folders: string[] = [];
  if (existsSync(join(dir, 'kustomization.yaml'))) folders.push(relative(K8S_DIR, dir) || '.');
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'test') {
      folders.push(...kustomizationFolders(join(dir, entry.name)));
    }
  }
  return folders.sort();
}

const ALL_FOLDERS = kustomizationFolders();
/** The deployable units: the folders directly under k8s/ (examples are overlays, not units). */
const UNITS = ALL_FOLDERS.filter((folder) => folder !== '.' && !folder.includes('/'));
const composedUnits = (
  parse(readFileSync(join(K8S_DIR, 'kustomization.yaml'), 'utf8')) as { resources: string[] }
).resources;

const key = (object: KubeObject) =>
  `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
const workloadsOf = (objects: KubeObject[]) =>
  objects.filter((object) => object.kind === 'Deployment' || object.kind === 'StatefulSet');
const podTemplateOf = (workload: KubeObject): PodTemplate => {
  const template = workload.spec?.template;
  if (!template) throw new Error(`${key(workload)} has no pod template`);
  return template;
};
const componentOf = (workload: KubeObject) =>
  podTemplateOf(workload).metadata.labels?.['app.kubernetes.io/component'];
/** For choosing test cases only: a folder that does not build fails its own "builds" test instead. */
function kustomizeOrNothing(folder: string): KubeObject[] {
  try {
    return kustomize(folder);
  } catch {
    return [];
  }
}
/** Units that serve HTTP behind Kong: the domain services and the front-ends. */
const ROUTED_UNITS = UNITS.filter((unit) =>
  workloadsOf(kustomizeOrNothing(unit)).some((workload) =>
    ['service', 'frontend'].includes(componentOf(workload) ?? ''),
  ),
);

function matches(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) {
  return (
    !!selector &&
    Object.keys(selector).length > 0 &&
    Object.entries(selector).every(([name, value]) => labels?.[name] === value)
  );
}

/** The first container of a unit's Deployment. */
function mainContainerOf(unit: string): { container: Container; pod: PodTemplate } {
  const deployment = kustomize(unit).find((object) => object.kind === 'Deployment');
  if (!deployment) throw new Error(`k8s/${unit} has no Deployment`);
  const pod = podTemplateOf(deployment);
  const container = pod.spec.containers[0];
  if (!container) throw new Error(`k8s/${unit}: ${key(deployment)} has no container`);
  return { container, pod };
}
const envOf = (container: Container, name: string) =>
  container.env?.find((variable) => variable.name === name);

describe('kustomize folders', () => {
  it('finds kustomize: the one built into kubectl, or the standalone build', () => {
    expect(existsSync(findRenderer().command)).toBe(true);
  });

  it.each(ALL_FOLDERS)('k8s/%s builds with kubectl kustomize', (folder) => {
    expect(kustomize(folder).length).toBeGreaterThan(0);
  });

  it('composes every unit in k8s/kustomization.yaml', () => {
    expect([...composedUnits].sort()).toEqual(UNITS);
  });

  it('renders each object identically whether its unit is deployed alone or with the whole shop', () => {
    const whole = new Map(kustomize('.').map((object) => [key(object), object]));
    const alone = UNITS.flatMap((unit) => kustomize(unit));
    expect(alone.map(key).sort()).toEqual([...whole.keys()].sort());
    for (const object of alone) expect(whole.get(key(object)), key(object)).toEqual(object);
  });

  it.each(UNITS)('k8s/%s puts everything in the shop namespace with the common labels', (unit) => {
    for (const object of kustomize(unit)) {
      if (object.kind === 'Namespace') expect(object.metadata.name).toBe(NAMESPACE);
      else expect(object.metadata.namespace, key(object)).toBe(NAMESPACE);
      expect(object.metadata.labels, key(object)).toMatchObject(PART_OF);
    }
    for (const workload of workloadsOf(kustomize(unit))) {
      expect(podTemplateOf(workload).metadata.labels, key(workload)).toMatchObject(PART_OF);
    }
  });
});

describe('workloads', () => {
  const workloads = UNITS.flatMap((unit) =>
    workloadsOf(kustomizeOrNothing(unit)).map((workload) => ({ unit, workload })),
  );
  const containers = workloads.flatMap(({ unit, workload }) =>
    podTemplateOf(workload).spec.containers.map((container) => ({
      name: `${unit}: ${key(workload)} container ${container.name}`,
      container,
      pod: podTemplateOf(workload).spec,
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

  it.each(containers)('$name has resource requests and limits', ({ container }) => {
    expect(container.resources?.requests).toMatchObject({
      cpu: expect.any(String),
      memory: expect.any(String),
    });
    expect(container.resources?.limits).toMatchObject({
      cpu: expect.any(String),
      memory: expect.any(String),
    });
  });

  it.each(containers)('$name meets the restricted Pod Security Standard', ({ container, pod }) => {
    const effective = { ...pod.securityContext, ...container.securityContext };
    expect(effective.runAsNonRoot).toBe(true);
    expect(effective.runAsUser, 'a numeric user lets the kubelet verify runAsNonRoot').toBeGreaterThan(0);
    expect(effective.seccompProfile?.type).toBe('RuntimeDefault');
    expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
    expect(container.securityContext?.capabilities?.drop).toContain('ALL');
    expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
  });

  it.each(containers)('$name uses a pinned image, ours from the shop registry', ({ container, name }) => {
    const [, tag] = /^[^@]+:([^:/@]+)$/.exec(container.image) ?? [];
    expect(tag, `${container.image} has no tag`).toBeDefined();
    expect(tag).not.toBe('latest');
    if (container.image.startsWith(IMAGE_REGISTRY)) {
      const unit = name.split(':')[0];
      expect(container.image.slice(IMAGE_REGISTRY.length).split(':')[0]).toBe(unit);
    }
  });

  it.each(ROUTED_UNITS)(
    'k8s/%s runs 2 replicas from the shop registry, guarded by a PodDisruptionBudget',
    (unit) => {
      const objects = kustomize(unit);
      const [deployment, ...others] = objects.filter((object) => object.kind === 'Deployment');
      expect(others).toHaveLength(0);
      if (!deployment) throw new Error(`k8s/${unit} has no Deployment`);
      expect(deployment.spec?.replicas).toBeGreaterThanOrEqual(2);
      expect(podTemplateOf(deployment).spec.containers[0]?.image).toMatch(
        new RegExp(`^${IMAGE_REGISTRY.replaceAll('.', '\\.')}${unit}:[\\w.-]+$`),
      );
      const budget = objects.find((object) => object.kind === 'PodDisruptionBudget');
      expect(matches(budget?.spec?.selector?.matchLabels, podTemplateOf(deployment).metadata.labels)).toBe(
        true,
      );
    },
  );

  it.each(UNITS)('k8s/%s: each Service selects its pods and targets a port they declare', (unit) => {
    const objects = kustomize(unit);
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
  });
});

describe('domain services', () => {
  const SERVICE_UNITS = ROUTED_UNITS.filter((unit) =>
    workloadsOf(kustomizeOrNothing(unit)).some((workload) => componentOf(workload) === 'service'),
  );
  const natsClientPort = () =>
    kustomize('nats')
      .find((object) => object.kind === 'Service' && object.metadata.name === 'nats')
      ?.spec?.ports?.find((port) => port.name === 'client')?.port;

  it.each(SERVICE_UNITS)(
    'k8s/%s takes settings from its ConfigMap and MONGO_URL from a Secret only',
    (unit) => {
      const objects = kustomize(unit);
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
    const objects = kustomize('users');
    const config = objects.find((object) => object.kind === 'ConfigMap');
    expect(config?.metadata.name).toMatch(/^users-config-\w+$/);
    for (const name of [...REQUIRED_SECRETS, 'SMTP_URL', 'MONGO_URL']) {
      expect(config?.data, name).not.toHaveProperty(name);
    }
  });

  it('writes the mail outbox (used without SMTP_URL) into a writable emptyDir', () => {
    const { container, pod } = mainContainerOf('users');
    expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
    const config = kustomize('users').find(
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
  const whole = () => kustomize('.');
  const policies = () => whole().filter((object) => object.kind === 'NetworkPolicy');
  const podsMatching = (selector: Record<string, string> | undefined) =>
    workloadsOf(whole()).filter((workload) => matches(selector, podTemplateOf(workload).metadata.labels));
  /** A rule's port as a number, resolving a named port on the pods it applies to. */
  const portNumber = (port: string | number | undefined, pods: KubeObject[]) =>
    typeof port === 'number'
      ? port
      : pods
          .flatMap((workload) => podTemplateOf(workload).spec.containers.flatMap((c) => c.ports ?? []))
          .find((declared) => declared.name === port)?.containerPort;
  const egressUnits = () =>
    UNITS.filter((unit) =>
      kustomizeOrNothing(unit).some(
        (object) => object.kind === 'NetworkPolicy' && object.spec?.policyTypes?.includes('Egress'),
      ),
    );

  it('limits the egress of the users service', () => {
    expect(egressUnits()).toContain('users');
  });

  it.each(egressUnits())(
    "k8s/%s: each egress rule to the shop's pods names pods that exist, on ports they declare, and that their own policies admit",
    (unit) => {
      for (const policy of kustomize(unit).filter((object) => object.kind === 'NetworkPolicy')) {
        const sources = podsMatching(policy.spec?.podSelector?.matchLabels);
        expect(sources.length, `${key(policy)} selects no pods`).toBeGreaterThan(0);
        for (const rule of policy.spec?.egress ?? []) {
          for (const peer of rule.to ?? []) {
            if (!peer.podSelector || peer.namespaceSelector || peer.ipBlock) continue;
            const targets = podsMatching(peer.podSelector.matchLabels);
            const what = `${key(policy)} egress to ${JSON.stringify(peer.podSelector.matchLabels)}`;
            expect(targets.length, `${what} selects no pods`).toBeGreaterThan(0);
            for (const { port } of rule.ports ?? []) {
              const number = portNumber(port, targets);
              expect(number, `${what}: port ${port} is not declared`).toBeDefined();
              for (const target of targets) {
                const admitting = policies().filter(
                  (other) =>
                    other.spec?.policyTypes?.includes('Ingress') &&
                    matches(other.spec.podSelector?.matchLabels, podTemplateOf(target).metadata.labels),
                );
                if (admitting.length === 0) continue;
                const admitted = admitting.some((other) =>
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
              }
            }
          }
        }
      }
    },
  );

  it('lets the users service reach the cluster DNS over UDP and TCP, and SMTP outside the cluster', () => {
    const policy = kustomize('users').find((object) => object.kind === 'NetworkPolicy');
    const egress = policy?.spec?.egress ?? [];
    const dns = egress.find((rule) =>
      rule.to?.some((peer) => peer.podSelector?.matchLabels?.['k8s-app'] === 'kube-dns'),
    );
    expect(dns?.ports).toEqual(
      expect.arrayContaining([
        { protocol: 'UDP', port: 53 },
        { protocol: 'TCP', port: 53 },
      ]),
    );
    const smtp = egress.find((rule) => rule.to?.some((peer) => peer.ipBlock?.cidr === '0.0.0.0/0'));
    expect(smtp?.ports?.map((port) => port.port).sort()).toEqual([25, 465, 587]);
    expect(smtp?.ports?.every((port) => port.protocol === 'TCP')).toBe(true);
  });
});

describe('Kong routes and Kubernetes Services', () => {
  function kongServices(): Map<string, number> {
    if (!existsSync(KONG_YML)) {
      throw new Error(
        `${KONG_YML} is missing: k8s/kong deploys it and these tests check the Services against it`,
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
    kustomize(unit)
      .filter((object) => object.kind === 'Service' && object.metadata.name === name)
      .flatMap((object) => object.spec?.ports?.map((port) => port.port) ?? []);

  it('every Kong service host that has a folder here has a Service of that exact name and port', () => {
    const deployed = [...kongServices()].filter(([host]) => UNITS.includes(host));
    expect(deployed.length).toBeGreaterThan(0);
    for (const [host, port] of deployed) {
      expect(servicePorts(host, host), `k8s/${host} Service "${host}"`).toContain(port);
    }
  });

  it('every routed unit here is a Kong service host with the same port', () => {
    const hosts = kongServices();
    for (const unit of ROUTED_UNITS) {
      expect(hosts.has(unit), `gateway/kong.yml has no service with host "${unit}"`).toBe(true);
      expect(servicePorts(unit, unit)).toContain(hosts.get(unit));
    }
  });

  it('k8s/kong loads exactly gateway/kong.yml as its declarative configuration', () => {
    const objects = kustomize('kong');
    const deployment = objects.find((object) => object.kind === 'Deployment');
    const pod = podTemplateOf(deployment!).spec;
    const configMapName = pod.volumes?.find((volume) => volume.configMap)?.configMap?.name;
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
  });

  it('k8s/kong exposes the proxy on port 80 of a LoadBalancer', () => {
    const service = kustomize('kong').find((object) => object.kind === 'Service') as KubeObject & {
      spec: { type: string };
    };
    expect(service.spec.type).toBe('LoadBalancer');
    expect(service.spec.ports?.[0]).toMatchObject({ port: 80, targetPort: 'proxy' });
    const proxyPort = podTemplateOf(
      kustomize('kong').find((object) => object.kind === 'Deployment')!,
    ).spec.containers[0]?.ports?.find((port) => port.name === 'proxy')?.containerPort;
    expect(proxyPort).toBe(8000);
  });
});

describe('shell remotes manifest', () => {
  function remotesOf(folder: string) {
    const objects = kustomize(folder);
    const pod = podTemplateOf(objects.find((object) => object.kind === 'Deployment')!).spec;
    const mount = pod.containers[0]?.volumeMounts?.find(
      (volumeMount) => volumeMount.mountPath === '/usr/share/nginx/html/remotes.json',
    );
    expect(mount, 'remotes.json is mounted over the built one').toBeDefined();
    expect(mount?.subPath).toBe('remotes.json');
    const configMapName = pod.volumes?.find((volume) => volume.name === mount?.name)?.configMap?.name;
    const configMap = objects.find(
      (object) => object.kind === 'ConfigMap' && object.metadata.name === configMapName,
    );
    // A subPath mount never sees ConfigMap updates: the hash suffix turns each change into a rollout.
    expect(configMapName).toMatch(/^shell-remotes-\w+$/);
    return { name: configMapName, remotes: JSON.parse(configMap?.data?.['remotes.json'] ?? '') as unknown };
  }

  it('parses as JSON and names the catalog, checkout and admin remotes', () => {
    const { remotes } = remotesOf('shell');
    expect(remotes).toEqual({
      catalog: expect.stringMatching(/mf-manifest\.json$/),
      checkout: expect.stringMatching(/mf-manifest\.json$/),
      admin: expect.stringMatching(/mf-manifest\.json$/),
    });
  });

  it('is replaced per environment by an overlay, without touching the shell image', () => {
    const base = remotesOf('shell');
    const overlay = remotesOf('examples/remotes-override');
    expect(overlay.name).not.toBe(base.name);
    expect(overlay.remotes).not.toEqual(base.remotes);
    expect(overlay.remotes).toMatchObject({
      catalog: expect.stringMatching(/^https:\/\/.+mf-manifest\.json$/),
    });
    const image = (folder: string) =>
      podTemplateOf(kustomize(folder).find((object) => object.kind === 'Deployment')!).spec.containers[0]
        ?.image;
    expect(image('examples/remotes-override')).toBe(image('shell'));
  });
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

  it.each(ROUTED_UNITS)("k8s/%s runs its image's own non-root user and port", (unit) => {
    const deployment = kustomize(unit).find((object) => object.kind === 'Deployment')!;
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
      const template = readFileSync(join(DOCKER_DIR, 'nginx', 'frontend.conf.template'), 'utf8');
      expect(template).toMatch(new RegExp(`^\\s*listen ${containerPort}\\b`, 'm'));
    }
  });
});
