import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parse } from 'yaml';
import {
  type Container,
  type Environment,
  type KubeObject,
  type PodTemplate,
  type Probe,
  REPO_ROOT,
  UNITS,
  compareVersions,
  componentOf,
  key,
  kustomize,
  matches,
  podTemplateOf,
  unitFolder,
  wholeFolder,
  workloadsOf,
} from './render';

/**
 * The shop's own checks of its manifests, each a function of what it reads, so that a test can show it a
 * manifest that breaks it (test/broken-manifests.spec.ts) as well as the real ones (test/manifests.spec.ts).
 * A check throws (vitest's `expect`) when the manifests break its rule.
 */

/** What a check reads: rendered kustomize folders and files of the repository. */
export interface Manifests {
  /** A `kustomize build` of a folder of k8s/, parsed. */
  render(folder: string): KubeObject[];
  /** A file of the repository, by its path from the root. */
  read(path: string): string;
}

/** The manifests and files as they are in the repository. */
export const REAL: Manifests = {
  render: kustomize,
  read: (path) => readFileSync(join(REPO_ROOT, path), 'utf8'),
};

export const IMAGE_REGISTRY = 'registry.example.com/shop/';
const NAMESPACE = 'shop';
const KONG_YML = 'gateway/kong.yml';

/** Units whose Deployment is of one of these components. */
export const unitsOfComponent = (m: Manifests, components: string[]) =>
  UNITS.filter((unit) => {
    let objects: KubeObject[];
    try {
      objects = m.render(unitFolder(unit));
    } catch {
      return false; // a unit that does not build fails its own "builds" check instead
    }
    return workloadsOf(objects).some((workload) => components.includes(componentOf(workload) ?? ''));
  });
/** Units that serve HTTP behind Kong: the domain services and the front-ends. */
export const routedUnits = (m: Manifests) => unitsOfComponent(m, ['service', 'frontend']);
export const serviceUnits = (m: Manifests) => unitsOfComponent(m, ['service']);
/** Units that render pages on the server (docs/rendering.md): reached inside the cluster only, never by Kong. */
export const rendererUnits = (m: Manifests) => unitsOfComponent(m, ['renderer']);

/**
 * Each server-rendering unit: the workspace it is built from (its image carries that workspace's version),
 * the source of its HTTP server, and the only pods that may call it.
 */
export const RENDERERS: Record<string, { from: string; server: string; callers: string[] }> = {
  'mf-catalog-render': {
    from: 'mf-catalog',
    server: 'mf-catalog/src/server/render-server.ts',
    callers: ['shell-pages'],
  },
  'shell-pages': { from: 'shell', server: 'shell/src/server/page-server.tsx', callers: ['shell'] },
};

const resourcesOf = (m: Manifests, folder: string) =>
  (parse(m.read(`k8s/${folder}/kustomization.yaml`)) as { resources?: string[] }).resources ?? [];

/** The first container of a unit's Deployment. */
export function mainContainerOf(
  m: Manifests,
  unit: string,
  environment?: Environment,
): { container: Container; pod: PodTemplate; objects: KubeObject[] } {
  const objects = m.render(unitFolder(unit, environment));
  const deployment = objects.find((object) => object.kind === 'Deployment');
  if (!deployment) throw new Error(`k8s/${unitFolder(unit, environment)} has no Deployment`);
  const pod = podTemplateOf(deployment);
  const container = pod.spec.containers[0];
  if (!container) throw new Error(`${key(deployment)} has no container`);
  return { container, pod, objects };
}
const envOf = (container: Container, name: string) =>
  container.env?.find((variable) => variable.name === name);
const imageTagOf = (m: Manifests, unit: string, environment?: Environment) =>
  mainContainerOf(m, unit, environment).container.image.split(':').at(-1) ?? '';
const packageDirOf = (m: Manifests, unit: string) =>
  serviceUnits(m).includes(unit) ? `services/${unit}` : (RENDERERS[unit]?.from ?? unit);
const versionOf = (m: Manifests, unit: string) =>
  (JSON.parse(m.read(`${packageDirOf(m, unit)}/package.json`)) as { version: string }).version;

// ---------------------------------------------------------------------------------------------------
// Folders

export function buildsWithKustomize(m: Manifests, folder: string): void {
  expect(m.render(folder).length, `k8s/${folder} renders objects`).toBeGreaterThan(0);
}

export function hasBaseAndOverlays(folders: string[]): void {
  expect(folders, 'the base and the dev and prod overlays').toEqual(
    expect.arrayContaining(['base', 'overlays/dev', 'overlays/prod']),
  );
}

export function wholeComposesEveryUnit(m: Manifests, environment?: Environment): void {
  expect([...resourcesOf(m, wholeFolder(environment))].sort(), 'the whole composes every unit').toEqual(
    UNITS,
  );
}

export function unitOverlaysBuildOnTheirBase(m: Manifests, environment: Environment): void {
  for (const unit of UNITS) {
    expect(resourcesOf(m, unitFolder(unit, environment)), unit).toEqual([`../../../base/${unit}`]);
  }
}

export function sameAloneAndWhole(m: Manifests, environment?: Environment): void {
  const whole = new Map(m.render(wholeFolder(environment)).map((object) => [key(object), object]));
  const alone = UNITS.flatMap((unit) => m.render(unitFolder(unit, environment)));
  expect(alone.map(key).sort(), 'the objects of the units, deployed alone').toEqual([...whole.keys()].sort());
  for (const object of alone) expect(whole.get(key(object)), key(object)).toEqual(object);
}

// ---------------------------------------------------------------------------------------------------
// Workloads

export function includesEveryRoutedUnit(routed: string[]): void {
  expect(routed, 'the units with a Deployment of a service or front-end').toEqual(
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
}

/** Where a probe looks: an HTTP path on a port, a TCP port, or a command. */
type ProbeTarget =
  | { kind: 'http'; path: string; port: number | undefined }
  | { kind: 'tcp'; port: number | undefined }
  | { kind: 'exec'; command: string };

function targetOf(probe: Probe | undefined, container: Container): ProbeTarget | undefined {
  if (!probe) return undefined;
  const portNumber = (port: string | number) =>
    typeof port === 'number'
      ? container.ports?.find((declared) => declared.containerPort === port)?.containerPort
      : container.ports?.find((declared) => declared.name === port)?.containerPort;
  if (probe.httpGet)
    return { kind: 'http', path: probe.httpGet.path ?? '/', port: portNumber(probe.httpGet.port) };
  if (probe.tcpSocket) return { kind: 'tcp', port: portNumber(probe.tcpSocket.port) };
  if (probe.exec) return { kind: 'exec', command: probe.exec.command.join(' ') };
  return undefined;
}

/** The paths a NestJS controller of the service kit answers: `@Controller('x')` with each `@Get('y')`. */
function nestRoutes(source: string): string[] {
  const prefix = /@Controller\('([^']*)'\)/.exec(source)?.[1] ?? '';
  return [...source.matchAll(/@Get\('([^']*)'\)/g)].map((match) => `/${prefix}/${match[1]}`);
}

/** The exact locations an nginx configuration answers (`location = /path`). */
function nginxExactLocations(...configs: string[]): string[] {
  return configs.flatMap((config) =>
    [...config.matchAll(/^\s*location = (\S+) \{/gm)].map((match) => match[1]!),
  );
}

/**
 * What each kind of workload is asked, and where its image answers: readiness is the endpoint that
 * says the part can do its work (a service's checks its database and NATS), liveness the one that says
 * the process answers, each on the port the process serves it on. A startup probe asks what liveness
 * asks. Answers the expected readiness and liveness targets of a container.
 */
function expectedProbes(
  m: Manifests,
  objects: KubeObject[],
  component: string | undefined,
  container: Container,
): { readiness: ProbeTarget; liveness: ProbeTarget } {
  const named = (name: string) => container.ports?.find((port) => port.name === name)?.containerPort;
  switch (component) {
    case 'service': {
      const routes = nestRoutes(m.read('libs/service-kit/src/health/health.controller.ts'));
      expect(routes, 'the service kit answers /health/ready and /health/live').toEqual(
        expect.arrayContaining(['/health/ready', '/health/live']),
      );
      return {
        readiness: { kind: 'http', path: '/health/ready', port: named('http') },
        liveness: { kind: 'http', path: '/health/live', port: named('http') },
      };
    }
    case 'frontend': {
      const common = m.read('docker/nginx/frontend-common.conf');
      for (const template of ['shell.conf.template', 'remote.conf.template']) {
        expect(
          nginxExactLocations(common, m.read(`docker/nginx/${template}`)),
          `docker/nginx/${template} answers the probes`,
        ).toEqual(expect.arrayContaining(['/health/ready', '/health/live']));
      }
      return {
        readiness: { kind: 'http', path: '/health/ready', port: named('http') },
        liveness: { kind: 'http', path: '/health/live', port: named('http') },
      };
    }
    case 'renderer': {
      // The render service and the page server answer both paths themselves (their own HTTP server).
      const server = RENDERERS[container.name]?.server;
      expect(server, `${container.name} is a known server-rendering unit`).toBeDefined();
      const source = m.read(server ?? '');
      for (const path of ['/health/ready', '/health/live'])
        expect(source, `${server} answers ${path}`).toContain(`'${path}'`);
      return {
        readiness: { kind: 'http', path: '/health/ready', port: named('http') },
        liveness: { kind: 'http', path: '/health/live', port: named('http') },
      };
    }
    case 'gateway': {
      // Kong answers /status and /status/ready on its status listener only.
      const status = Number(/:(\d+)$/.exec(envOf(container, 'KONG_STATUS_LISTEN')?.value ?? '')?.[1]);
      expect(status, 'KONG_STATUS_LISTEN names a port').toBeGreaterThan(0);
      return {
        readiness: { kind: 'http', path: '/status/ready', port: status },
        liveness: { kind: 'http', path: '/status', port: status },
      };
    }
    case 'broker': {
      // nats-server answers /healthz on its monitoring port, `-m <port>`.
      const args = (container as Container & { args?: string[] }).args ?? [];
      const monitor = Number(args[args.indexOf('-m') + 1]);
      expect(monitor, 'nats-server is started with a monitoring port (-m)').toBeGreaterThan(0);
      return {
        readiness: { kind: 'http', path: '/healthz?js-server-only=true', port: monitor },
        liveness: { kind: 'http', path: '/healthz?js-enabled-only=true', port: monitor },
      };
    }
    case 'database':
      // mongod listens on 27017; ready when it is a writable primary or a secondary of the set.
      return {
        readiness: {
          kind: 'exec',
          command: expect.stringMatching(/^mongosh .*db\.hello\(\).*isWritablePrimary.*secondary/) as string,
        },
        liveness: { kind: 'tcp', port: 27017 },
      };
    case 'telemetry': {
      // The OpenTelemetry Collector's health_check extension answers on the endpoint its configuration names.
      const config = objects
        .filter((object) => object.kind === 'ConfigMap')
        .flatMap((object) => Object.values(object.data ?? {}))
        .find((text) => /^\s*health_check:/m.test(text));
      const health = (parse(config ?? '') as { extensions?: { health_check?: { endpoint?: string } } } | null)
        ?.extensions?.health_check?.endpoint;
      const port = Number(/:(\d+)$/.exec(health ?? '')?.[1]);
      expect(port, "the collector's health_check extension has an endpoint").toBeGreaterThan(0);
      return {
        readiness: { kind: 'http', path: '/', port },
        liveness: expect.objectContaining({ port }) as ProbeTarget,
      };
    }
    default:
      throw new Error(`no rule for the probes of a ${component} workload`);
  }
}

export function probesAskWhatTheImageAnswers(
  m: Manifests,
  objects: KubeObject[],
  workload: KubeObject,
  container: Container,
): void {
  expect(container.readinessProbe, 'a readiness probe').toBeDefined();
  expect(container.livenessProbe, 'a liveness probe').toBeDefined();
  const expected = expectedProbes(m, objects, componentOf(workload), container);
  for (const target of [expected.readiness, expected.liveness]) {
    if (target.kind === 'http' || target.kind === 'tcp')
      expect(
        target.port,
        `the container declares the port of ${target.kind} ${'path' in target ? target.path : ''}`,
      ).toBeDefined();
  }
  expect(targetOf(container.readinessProbe, container), 'readiness probe').toEqual(expected.readiness);
  expect(targetOf(container.livenessProbe, container), 'liveness probe').toEqual(expected.liveness);
  const startup = (container as Container & { startupProbe?: Probe }).startupProbe;
  // A startup probe waits for the process to answer: liveness's endpoint and port (nats-server's /healthz
  // without the JetStream condition is the same endpoint).
  const started = targetOf(startup, container);
  const living = targetOf(container.livenessProbe, container);
  if (started && living) {
    const endpoint = (target: ProbeTarget) =>
      target.kind === 'http' ? { ...target, path: target.path.split('?')[0] } : target;
    expect(endpoint(started), 'startup probe').toEqual(endpoint(living));
  }
}

export function scalesEveryStatelessPart(scaled: string[], routed: string[]): void {
  expect(scaled, 'the units scaled by an HPA').toEqual(expect.arrayContaining([...routed, 'kong']));
}

export function moreReplicasInProd(m: Manifests, unit: string): void {
  const bounds = (environment: Environment) =>
    m.render(unitFolder(unit, environment)).find((object) => object.kind === 'HorizontalPodAutoscaler')?.spec;
  expect(bounds('prod')?.minReplicas, 'prod minReplicas').toBeGreaterThanOrEqual(
    bounds('dev')?.minReplicas ?? Infinity,
  );
  expect(bounds('prod')?.maxReplicas, 'prod maxReplicas').toBeGreaterThan(
    bounds('dev')?.maxReplicas ?? Infinity,
  );
}

// ---------------------------------------------------------------------------------------------------
// Releases

export function prodRunsPackageVersion(m: Manifests, unit: string): void {
  expect(mainContainerOf(m, unit, 'prod').container.image, `the image prod runs ${unit} from`).toBe(
    `${IMAGE_REGISTRY}${unit}:${versionOf(m, unit)}`,
  );
}

// ---------------------------------------------------------------------------------------------------
// Domain services (the public key each verifies tokens with, and the signing key none but the users
// service is given, are k8s/policy/tokens.rego's)

export function serviceSettingsFromConfigMap(m: Manifests, unit: string): void {
  const { container, objects } = mainContainerOf(m, unit);
  const natsClientPort = m
    .render(unitFolder('nats'))
    .find((object) => object.kind === 'Service' && object.metadata.name === 'nats')
    ?.spec?.ports?.find((port) => port.name === 'client')?.port;
  const configMapName = container.envFrom?.[0]?.configMapRef?.name;
  const config = objects.find(
    (object) => object.kind === 'ConfigMap' && object.metadata.name === configMapName,
  );
  expect(config, `k8s/${unit}'s ConfigMap ${configMapName}`).toBeDefined();
  expect(config?.metadata.name, 'hash suffix: a change rolls the pods').toMatch(
    new RegExp(`^${unit}-config-\\w+$`),
  );
  expect(Number(config?.data?.PORT), 'PORT is the container port http').toBe(
    container.ports?.find((port) => port.name === 'http')?.containerPort,
  );
  expect(config?.data?.NATS_URL, 'NATS_URL').toBe(`nats://nats:${natsClientPort}`);
  expect(config?.data?.NODE_ENV, 'NODE_ENV').toBe('production');
  expect(config?.data, 'MONGO_URL is no setting').not.toHaveProperty('MONGO_URL');
  expect(envOf(container, 'MONGO_URL')?.valueFrom?.secretKeyRef, 'MONGO_URL from its Secret').toEqual({
    name: `${unit}-mongodb`,
    key: 'MONGO_URL',
  });
}

export function devSecretNamesOwnDatabase(m: Manifests, unit: string): void {
  const secret = m
    .render('examples/dev-secrets')
    .find((object) => object.kind === 'Secret' && object.metadata.name === `${unit}-mongodb`);
  const url = Buffer.from(secret?.data?.MONGO_URL ?? '', 'base64').toString('utf8');
  expect(url, `Secret ${unit}-mongodb has a MONGO_URL`).not.toBe('');
  expect(new URL(url).pathname, 'the database of the URL').toBe(`/${unit}`);
  expect(new URL(url).searchParams.get('replicaSet'), 'replicaSet').toBe('rs0');
}

// ---------------------------------------------------------------------------------------------------
// Users service

/**
 * What the users Deployment takes from users-secrets and cannot start without (no `optional`):
 * k8s/policy/users.rego holds it to what the service refuses to start without in production.
 */
function requiredUsersSecrets(m: Manifests): string[] {
  const deployment = workloadsOf(m.render('base/users')).find((w) => w.kind === 'Deployment')!;
  return (podTemplateOf(deployment).spec.containers[0]!.env ?? [])
    .filter(
      ({ valueFrom }) =>
        valueFrom?.secretKeyRef?.name === 'users-secrets' && !valueFrom.secretKeyRef.optional,
    )
    .map(({ name }) => name);
}

export function usersSecretsCreatedByTheReadme(m: Manifests): void {
  const required = requiredUsersSecrets(m);
  expect(required, 'the secrets the users Deployment requires').toContain('JWT_PRIVATE_KEY');
  expect(
    m
      .render('examples/dev-secrets')
      .some((object) => object.kind === 'Secret' && object.metadata.name === 'users-secrets'),
    'a committed users-secrets',
  ).toBe(false);
  const readme = m.read('k8s/README.md');
  const start = readme.indexOf('create secret generic users-secrets');
  expect(start, 'k8s/README.md shows how to create users-secrets').toBeGreaterThanOrEqual(0);
  const command = readme.slice(start, readme.indexOf('```', start));
  const keys = [...command.matchAll(/--from-(?:file|literal)=(\w+)=/g)].map((match) => match[1]);
  expect(keys, 'the keys the README puts in users-secrets').toEqual(expect.arrayContaining(required));
  expect(command).toContain('--from-file=JWT_PRIVATE_KEY=');
}

// ---------------------------------------------------------------------------------------------------
// Network policies
//
// What one render says of a unit's own policy (Kong open on its proxy port only, the services and
// front-ends admitting Kong and pods named one by one, the services reaching MongoDB and NATS, only the
// users service reaching outside) is k8s/policy/network.rego's and kong.rego's. Here: each server-rendering
// unit's one caller (RENDERERS), and every egress rule against the policies of the pods it names.

const policiesOf = (objects: KubeObject[]) => objects.filter((object) => object.kind === 'NetworkPolicy');
/** A rule's port as a number, resolving a named port on the pods it applies to. */
const portNumber = (port: string | number | undefined, pods: KubeObject[]) =>
  typeof port === 'number'
    ? port
    : pods
        .flatMap((workload) => podTemplateOf(workload).spec.containers.flatMap((c) => c.ports ?? []))
        .find((declared) => declared.name === port)?.containerPort;

/** A server-rendering unit admits HTTP from its one caller only: never from Kong, so never from browsers. */
export function admitsHttpFromItsCallerOnly(m: Manifests, unit: string): void {
  const callers = RENDERERS[unit]?.callers;
  expect(callers, `${unit} is a known server-rendering unit`).toBeDefined();
  const [policy, ...others] = policiesOf(m.render(unitFolder(unit)));
  expect(others, 'one NetworkPolicy').toHaveLength(0);
  expect(policy?.spec?.ingress, `${unit}'s ingress`).toEqual([
    {
      from: (callers ?? []).map((name) => ({
        podSelector: { matchLabels: { 'app.kubernetes.io/name': name } },
      })),
      ports: [{ protocol: 'TCP', port: 'http' }],
    },
  ]);
}

export function egressMatchesIngress(m: Manifests, environment?: Environment): void {
  const whole = m.render(wholeFolder(environment));
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
                    // A rule without sources admits every source (Kong's proxy port).
                    ((ingress.from ?? []).length === 0 ||
                      (ingress.from ?? []).some((from) =>
                        sources.every(
                          (source) =>
                            !!from.podSelector &&
                            (Object.keys(from.podSelector.matchLabels ?? {}).length === 0 ||
                              matches(from.podSelector.matchLabels, podTemplateOf(source).metadata.labels)),
                        ),
                      )) &&
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
  // Kong to 10 routed parts, 6 services to MongoDB and NATS, MongoDB to itself, and the server rendering:
  // nginx to the page server, which reads nginx and asks the render service, which reads through Kong and
  // hears the catalogue's changes from NATS.
  expect(checked, 'egress rules checked').toBeGreaterThanOrEqual(10 + 6 * 2 + 1 + 5);
}

// ---------------------------------------------------------------------------------------------------
// Server rendering (docs/rendering.md): who calls whom, by URL

/** The cluster's suffix of a Service's full name in the shop's namespace. */
const SERVICE_DOMAIN = `.${NAMESPACE}.svc.cluster.local`;

/**
 * Every in-cluster URL a unit's settings name (its ConfigMap and its container's env) is a Service of the
 * environment with that port, and the unit's own NetworkPolicy lets its pods reach that Service's pods on
 * the port the Service targets. `fullNames`: the URLs are resolved by nginx's resolver, which applies no
 * search domain, so they must be full names (`shell-pages.shop.svc.cluster.local`).
 */
export function settingsNameReachableServices(
  m: Manifests,
  unit: string,
  environment: Environment | undefined,
  { fullNames = false }: { fullNames?: boolean } = {},
): void {
  const whole = m.render(wholeFolder(environment));
  const { container, objects } = mainContainerOf(m, unit, environment);
  const configMap = objects.find(
    (object) =>
      object.kind === 'ConfigMap' && object.metadata.name === container.envFrom?.[0]?.configMapRef?.name,
  );
  const settings: Record<string, string> = {
    ...configMap?.data,
    ...Object.fromEntries(
      (container.env ?? []).flatMap((variable) =>
        variable.value === undefined ? [] : [[variable.name, variable.value]],
      ),
    ),
  };
  // Public origins (PUBLIC_URL) have dots in their names; a Service is named bare or by its full name.
  const inCluster = Object.entries(settings).filter(([, value]) => {
    if (!/^https?:\/\//.test(value)) return false;
    const host = new URL(value).hostname;
    return !host.includes('.') || host.endsWith(SERVICE_DOMAIN);
  });
  expect(inCluster.length, `${unit} names a Service in its settings`).toBeGreaterThan(0);
  const egress = policiesOf(objects).flatMap((policy) => policy.spec?.egress ?? []);
  for (const [name, value] of inCluster) {
    const url = new URL(value);
    if (fullNames) expect(url.hostname, `${name} is a full name`).toMatch(new RegExp(`${SERVICE_DOMAIN}$`));
    const serviceName = url.hostname.replace(SERVICE_DOMAIN, '');
    const service = whole.find((object) => object.kind === 'Service' && object.metadata.name === serviceName);
    expect(service, `${name}=${value}: a Service ${serviceName}`).toBeDefined();
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    const servicePort = service?.spec?.ports?.find((candidate) => candidate.port === port);
    expect(servicePort, `${name}=${value}: Service ${serviceName} has port ${port}`).toBeDefined();
    const targets = workloadsOf(whole).filter((workload) =>
      matches(service?.spec?.selector, podTemplateOf(workload).metadata.labels),
    );
    expect(targets.length, `Service ${serviceName} selects pods`).toBeGreaterThan(0);
    const targetPort = portNumber(servicePort?.targetPort ?? port, targets);
    const reaches = egress.some(
      (rule) =>
        (rule.to ?? []).some((peer) =>
          targets.every((target) =>
            matches(peer.podSelector?.matchLabels, podTemplateOf(target).metadata.labels),
          ),
        ) && (rule.ports ?? []).some((rulePort) => portNumber(rulePort.port, targets) === targetPort),
    );
    expect(reaches, `${unit}'s NetworkPolicy lets it reach ${serviceName} (${name}) on ${targetPort}`).toBe(
      true,
    );
  }
}

/**
 * The catalog's render service keeps the screens it rendered until the catalogue changes, which it hears over
 * NATS; without NATS_URL it renders every request, and nothing says so. Its NATS_URL names every server of
 * the environment's NATS on the client port (the Service nats for a single server, each member of a cluster,
 * as the services' do), and its own NetworkPolicy lets it out to the NATS pods on that port (that NATS's
 * policy admits it is egressMatchesIngress's part).
 */
export function renderCacheHearsNats(m: Manifests, unit: string, environment: Environment | undefined): void {
  const { container, objects } = mainContainerOf(m, unit, environment);
  const config = objects.find(
    (object) =>
      object.kind === 'ConfigMap' && object.metadata.name === container.envFrom?.[0]?.configMapRef?.name,
  );
  const nats = m.render(unitFolder('nats', environment));
  const set = nats.find((object) => object.kind === 'StatefulSet' && object.metadata.name === 'nats');
  if (!set) throw new Error(`k8s/${unitFolder('nats', environment)} has no StatefulSet nats`);
  const spec = set.spec as NonNullable<KubeObject['spec']> & { serviceName?: string };
  const client = portOf(podTemplateOf(set).spec.containers[0]!, 'client');
  const servicePort = nats
    .find((object) => object.kind === 'Service' && object.metadata.name === 'nats')
    ?.spec?.ports?.find((port) => port.name === 'client')?.port;
  const servers =
    (spec.replicas ?? 1) === 1
      ? [`nats://nats:${servicePort}`]
      : Array.from(
          { length: spec.replicas ?? 1 },
          (_, ordinal) => `nats://${set.metadata.name}-${ordinal}.${spec.serviceName}:${client}`,
        );
  expect(
    config?.data?.NATS_URL?.split(',').sort(),
    `${unit}'s NATS_URL names every NATS server (without it, no render cache)`,
  ).toEqual(servers);
  const reaches = policiesOf(objects)
    .flatMap((policy) => policy.spec?.egress ?? [])
    .some(
      (rule) =>
        (rule.to ?? []).some(
          (peer) =>
            !!peer.podSelector && matches(peer.podSelector.matchLabels, podTemplateOf(set).metadata.labels),
        ) && (rule.ports ?? []).some((rulePort) => portNumber(rulePort.port, [set]) === client),
    );
  expect(reaches, `${unit}'s NetworkPolicy lets it reach NATS on ${client}`).toBe(true);
}

/** The first shell version whose nginx hands page requests to the page server (docker/nginx/shell.conf.template). */
export const FIRST_SHELL_WITH_PAGE_SERVER = '0.2.0';

/**
 * The page server answers with its own shell build's index.html, whose files (`/<version>/main.js`) the
 * browser then loads from the shell's nginx: so the page server is never of a newer version than the shell's
 * image carries (its own version and the ones before it). A shell image older than the page proxying never
 * calls the page server, and sets no bound.
 */
export function pageServerNeverAheadOfShell(m: Manifests, environment: Environment): void {
  const pages = imageTagOf(m, 'shell-pages', environment);
  const shell = imageTagOf(m, 'shell', environment);
  if (compareVersions(shell, FIRST_SHELL_WITH_PAGE_SERVER) < 0) return;
  expect(
    compareVersions(pages, shell),
    `shell-pages ${pages} is ahead of the shell image ${shell}, which lacks the files its pages load`,
  ).toBeLessThanOrEqual(0);
}

// ---------------------------------------------------------------------------------------------------
// Kong

/** The hosts and ports of gateway/kong.yml's services. */
function kongServices(m: Manifests): Map<string, number> {
  const document = parse(m.read(KONG_YML)) as {
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
const servicePorts = (m: Manifests, unit: string, name: string) =>
  m
    .render(unitFolder(unit))
    .filter((object) => object.kind === 'Service' && object.metadata.name === name)
    .flatMap((object) => object.spec?.ports?.map((port) => port.port) ?? []);

export function kongHostsHaveServices(m: Manifests): void {
  const deployed = [...kongServices(m)].filter(([host]) => UNITS.includes(host));
  expect(deployed.length, 'Kong services deployed here').toBeGreaterThan(0);
  for (const [host, port] of deployed) {
    expect(servicePorts(m, host, host), `k8s/base/${host} Service "${host}"`).toContain(port);
  }
}

export function routedUnitsAreKongHosts(m: Manifests): void {
  const hosts = kongServices(m);
  for (const unit of routedUnits(m)) {
    expect(hosts.has(unit), `gateway/kong.yml has no service with host "${unit}"`).toBe(true);
    expect(servicePorts(m, unit, unit), `k8s/base/${unit} Service port`).toContain(hosts.get(unit));
  }
}

export function kongLoadsKongYml(m: Manifests, environment?: Environment): void {
  const objects = m.render(unitFolder('kong', environment));
  const deployment = objects.find((object) => object.kind === 'Deployment');
  const pod = podTemplateOf(deployment!).spec;
  const configMapName = pod.volumes?.find((volume) => volume.configMap)?.configMap?.name;
  expect(configMapName, 'hash suffix: a change of kong.yml rolls Kong').toMatch(
    /^kong-declarative-config-\w+$/,
  );
  const configMap = objects.find(
    (object) => object.kind === 'ConfigMap' && object.metadata.name === configMapName,
  );
  expect(configMap?.data?.['kong.yml'], 'the ConfigMap holds gateway/kong.yml').toBe(m.read(KONG_YML));
  const kong = pod.containers[0]!;
  const env = Object.fromEntries((kong.env ?? []).map((variable) => [variable.name, variable.value]));
  expect(env.KONG_DATABASE, 'KONG_DATABASE').toBe('off');
  const mount = kong.volumeMounts?.find((volumeMount) =>
    pod.volumes?.some((v) => v.name === volumeMount.name && v.configMap),
  );
  expect(env.KONG_DECLARATIVE_CONFIG, 'KONG_DECLARATIVE_CONFIG').toBe(`${mount?.mountPath}/kong.yml`);
}

// ---------------------------------------------------------------------------------------------------
// Shell: remotes manifest and release

const REMOTES = { catalog: 'mf-catalog', checkout: 'mf-checkout', admin: 'mf-admin' } as const;
const shellFolderOf = (environment?: Environment) =>
  environment ? `overlays/${environment}/shell` : 'base/shell';

/** The ConfigMap mounted at a path of the shell's container, and the mount. */
function mountedConfigMap(m: Manifests, environment: Environment | undefined, mountPath: string) {
  const objects = m.render(unitFolder('shell', environment));
  const pod = podTemplateOf(objects.find((object) => object.kind === 'Deployment')!).spec;
  const mount = pod.containers[0]?.volumeMounts?.find((volumeMount) => volumeMount.mountPath === mountPath);
  const name = pod.volumes?.find((volume) => volume.name === mount?.name)?.configMap?.name;
  const configMap = objects.find((object) => object.kind === 'ConfigMap' && object.metadata.name === name);
  return { mount, name, data: configMap?.data ?? {} };
}

function remotesOf(m: Manifests, environment?: Environment) {
  const { mount, name, data } = mountedConfigMap(m, environment, '/usr/share/nginx/html/remotes.json');
  expect(mount?.subPath, 'remotes.json is mounted over the built one').toBe('remotes.json');
  // A subPath mount never sees ConfigMap updates: the hash suffix turns each change into a rollout.
  expect(name, 'the ConfigMap of remotes.json').toMatch(/^shell-remotes-\w+$/);
  return { name, data, remotes: JSON.parse(data['remotes.json'] ?? '') as unknown };
}

export function remotesManifestNamesVersions(m: Manifests, environment?: Environment): void {
  const { remotes } = remotesOf(m, environment);
  expect(remotes, 'remotes.json schema').toMatchObject({ schemaVersion: 2 });
  const entries = (remotes as { remotes: Record<string, { version: string; url: string }> }).remotes;
  expect(Object.keys(entries).sort(), 'the remotes').toEqual(Object.keys(REMOTES).sort());
  for (const [name, entry] of Object.entries(entries)) {
    expect(entry.version, `${name}'s version`).toMatch(/^\d+\.\d+\.\d+$/);
    expect(entry.url, `${name}'s url`).toBe(`/remotes/${name}/${entry.version}/mf-manifest.json`);
  }
}

export function remotesManifestIsTheOverlays(m: Manifests, environment: Environment): void {
  const { data } = remotesOf(m, environment);
  expect(data['remotes.json'], "the overlay's remotes.json").toBe(
    m.read(`k8s/${shellFolderOf(environment)}/remotes.json`),
  );
  expect(data['site.json'], "the base's site.json").toBe(m.read('k8s/base/shell/site.json'));
}

export function remotesNeverAheadOfImages(m: Manifests, environment: Environment): void {
  const { remotes } = remotesOf(m, environment);
  const entries = (remotes as { remotes: Record<keyof typeof REMOTES, { version: string }> }).remotes;
  for (const [name, unit] of Object.entries(REMOTES)) {
    const named = entries[name as keyof typeof REMOTES].version;
    expect(
      compareVersions(named, imageTagOf(m, unit, environment)),
      `remotes.json names ${name} ${named}, ahead of its image`,
    ).toBeLessThanOrEqual(0);
  }
}

export function shellReleaseChosen(m: Manifests, environment?: Environment): void {
  const { mount, name, data } = mountedConfigMap(m, environment, '/etc/nginx/shell-release');
  expect(mount?.subPath, 'a directory mount').toBeUndefined();
  expect(name, 'the ConfigMap of shell-release.conf').toMatch(/^shell-release-\w+$/);
  const [, version] =
    /^set \$shell_release "(\d+\.\d+\.\d+)";$/m.exec(data['shell-release.conf'] ?? '') ?? [];
  expect(version, 'shell-release.conf sets $shell_release').toBeDefined();
  expect(
    compareVersions(version!, imageTagOf(m, 'shell', environment)),
    `shell-release ${version} ahead of the shell's image`,
  ).toBeLessThanOrEqual(0);
  if (environment) {
    expect(data['shell-release.conf'], "the overlay's shell-release.conf").toBe(
      m.read(`k8s/${shellFolderOf(environment)}/shell-release.conf`),
    );
  }
}

// ---------------------------------------------------------------------------------------------------
// Images built by docker/

/** The numeric USER of a Dockerfile's last stage, and the ports it EXPOSEs. */
function imageFacts(m: Manifests, dockerfile: string) {
  const text = m.read(`docker/${dockerfile}`);
  const lastStage = text.slice(text.lastIndexOf('\nFROM '));
  const user = /^USER (\d+):(\d+)$/m.exec(lastStage);
  const exposed = [...lastStage.matchAll(/^EXPOSE (\d+)$/gm)].map((match) => Number(match[1]));
  return { user: user ? { uid: Number(user[1]), gid: Number(user[2]) } : undefined, exposed };
}

export function runsTheImagesUserAndPort(m: Manifests, unit: string): void {
  const objects = m.render(unitFolder(unit));
  const deployment = objects.find((object) => object.kind === 'Deployment')!;
  const pod = podTemplateOf(deployment);
  const isFrontEnd = componentOf(deployment) === 'frontend';
  const isRenderer = componentOf(deployment) === 'renderer';
  const facts = imageFacts(
    m,
    isFrontEnd ? 'frontend.Dockerfile' : isRenderer ? 'render.Dockerfile' : 'service.Dockerfile',
  );
  expect(facts.user, 'the image names its user by number').toBeDefined();
  expect(pod.spec.securityContext, "the pod runs as the image's user").toMatchObject({
    runAsUser: facts.user?.uid,
    runAsGroup: facts.user?.gid,
  });
  if (isRenderer) {
    // The server listens on PORT (its ConfigMap's), which is the container port the probes and Service use.
    const container = pod.spec.containers[0]!;
    const containerPort = container.ports?.find((port) => port.name === 'http')?.containerPort;
    const config = objects.find(
      (object) =>
        object.kind === 'ConfigMap' && object.metadata.name === container.envFrom?.[0]?.configMapRef?.name,
    );
    expect(Number(config?.data?.PORT), 'PORT is the container port http').toBe(containerPort);
    expect(facts.exposed, 'the image EXPOSEs the container port').toContain(containerPort);
  }
  if (isFrontEnd) {
    const containerPort = pod.spec.containers[0]?.ports?.find((port) => port.name === 'http')?.containerPort;
    expect(facts.exposed, 'the image EXPOSEs the container port').toContain(containerPort);
    // The shell's server block and the remotes' (docker/nginx), chosen by the Dockerfile per APP.
    const template = m.read(
      `docker/nginx/${unit === 'shell' ? 'shell.conf.template' : 'remote.conf.template'}`,
    );
    expect(template, 'nginx listens on the container port').toMatch(
      new RegExp(`^\\s*listen ${containerPort}\\b`, 'm'),
    );
    if (unit === 'shell') {
      // nginx reads the release where the ConfigMap shell-release is mounted.
      const release = pod.spec.containers[0]?.volumeMounts?.find((mount) => mount.name === 'release');
      expect(template, 'nginx includes the mounted release').toContain(
        `include ${release?.mountPath}/shell-release.conf;`,
      );
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// Production data tier: NATS and MongoDB as sets of three (docs/decisions/0016-production-data-tier.md)

interface DataSet {
  container: Container & { args?: string[] };
  /** Each pod's stable name, `<set>-<ordinal>.<headless service>`. */
  members: string[];
}

/**
 * The first container of a data unit's StatefulSet in production, and its pods' stable names. What the
 * sets themselves must be (three members, one per node, routes and the replica set's initiation) is
 * k8s/policy/prod.rego's.
 */
function prodDataSet(m: Manifests, unit: 'nats' | 'mongodb'): DataSet {
  const objects = m.render(unitFolder(unit, 'prod'));
  const set = objects.find((object) => object.kind === 'StatefulSet' && object.metadata.name === unit);
  if (!set) throw new Error(`k8s/${unitFolder(unit, 'prod')} has no StatefulSet ${unit}`);
  const spec = set.spec as NonNullable<KubeObject['spec']> & { serviceName?: string };
  const container = podTemplateOf(set).spec.containers[0]!;
  const members = Array.from(
    { length: spec.replicas ?? 1 },
    (_, ordinal) => `${unit}-${ordinal}.${spec.serviceName}`,
  );
  return { container, members };
}

const argAfter = (args: string[] | undefined, flag: string) => {
  const index = args?.indexOf(flag) ?? -1;
  return index >= 0 ? args?.[index + 1] : undefined;
};
const portOf = (container: Container, name: string) =>
  container.ports?.find((port) => port.name === name)?.containerPort;

/** `mongodb://host:port,host:port/database?options` in its parts (WHATWG URL refuses several hosts). */
function mongoUrlParts(url: string) {
  const [, hosts, database, options] = /^mongodb:\/\/([^/]+)\/([^?]+)\??(.*)$/.exec(url) ?? [];
  return {
    hosts: hosts?.split(',').sort(),
    database,
    replicaSet: new URLSearchParams(options).get('replicaSet'),
  };
}

export function prodServiceNamesEveryMember(m: Manifests, unit: string): void {
  const { container, objects } = mainContainerOf(m, unit, 'prod');
  const config = objects.find(
    (object) =>
      object.kind === 'ConfigMap' && object.metadata.name === container.envFrom?.[0]?.configMapRef?.name,
  );
  const nats = prodDataSet(m, 'nats');
  const client = portOf(nats.container, 'client');
  expect(config?.data?.NATS_URL?.split(',').sort(), `${unit}'s NATS_URL names every NATS server`).toEqual(
    nats.members.map((member) => `nats://${member}:${client}`),
  );
  // As many copies of each stream as the cluster has servers (k8s/policy/prod.rego: three).
  expect(config?.data?.NATS_STREAM_REPLICAS, `${unit}'s NATS_STREAM_REPLICAS`).toBe(
    String(nats.members.length),
  );
  const reference = envOf(container, 'MONGO_URL')?.valueFrom?.secretKeyRef;
  expect(reference, 'MONGO_URL from its Secret').toEqual({ name: `${unit}-mongodb`, key: 'MONGO_URL' });
  const secret = m
    .render('examples/prod-secrets')
    .find((object) => object.kind === 'Secret' && object.metadata.name === reference?.name);
  const url = Buffer.from(secret?.data?.[reference?.key ?? ''] ?? '', 'base64').toString('utf8');
  const mongodb = prodDataSet(m, 'mongodb');
  const port = portOf(mongodb.container, 'mongodb');
  expect(mongoUrlParts(url), `examples/prod-secrets: ${unit}-mongodb's MONGO_URL`).toEqual({
    hosts: mongodb.members.map((member) => `${member}:${port}`),
    database: unit,
    replicaSet: argAfter(mongodb.container.args, '--replSet'),
  });
}
