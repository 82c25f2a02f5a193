import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import * as check from './support/checks';
import { type Manifests, REAL, routedUnits } from './support/checks';
import {
  type Container,
  K8S_DIR,
  type KubeObject,
  type NetworkPolicyRule,
  type PodTemplate,
  UNITS,
  podTemplateOf,
  workloadsOf,
} from './support/render';

/**
 * Each of the shop's own manifest checks (support/checks.ts) shown a manifest that breaks its rule: the
 * real manifests with one deliberate change. A check that let its broken manifest through would prove
 * nothing when it passes on the real ones. The last test makes sure no check is left without such a case.
 * The OPA policies of k8s/policy have theirs in k8s/policy/fixtures_test.rego (policy.spec.ts).
 */

/** The real manifests with a change applied to every rendered folder, and to some files. */
function changed(
  change: (objects: KubeObject[], folder: string) => void,
  files: Record<string, (text: string) => string> = {},
): Manifests {
  return {
    render(folder) {
      const objects = structuredClone(REAL.render(folder));
      change(objects, folder);
      return objects;
    },
    read(path) {
      const text = REAL.read(path);
      return files[path]?.(text) ?? text;
    },
  };
}
const withFiles = (files: Record<string, (text: string) => string>) => changed(() => undefined, files);

/** Whether a name is the one given, or one the pattern matches. */
const matches = (text: string, name: string | RegExp) =>
  typeof name === 'string' ? text === name : name.test(text);
const named = (objects: KubeObject[], kind: string, name: string | RegExp) =>
  objects.filter((object) => object.kind === kind && matches(object.metadata.name, name));
/** The real manifests with a change applied to the objects of every folder, or of `folder` only. */
const changedIn = (folder: string | RegExp | undefined, change: (objects: KubeObject[]) => void) =>
  changed((objects, rendered) => {
    if (folder === undefined || matches(rendered, folder)) change(objects);
  });
/** The real manifests with every object of a kind and name changed, in every folder or only in `folder`. */
const changedEach = (
  { kind, name, folder }: { kind: string; name: string | RegExp; folder?: string | RegExp },
  change: (object: KubeObject) => void,
) =>
  changedIn(folder, (objects) => {
    for (const object of named(objects, kind, name)) change(object);
  });
/** The real manifests with the first container of a unit's workload changed, in every folder or only in `folder`. */
const changedContainer = (
  { unit, folder }: { unit: string; folder?: string },
  change: (container: Container, pod: PodTemplate) => void,
) =>
  changedIn(folder, (objects) => {
    for (const workload of workloadsOf(objects).filter((object) => object.metadata.name === unit)) {
      const pod = podTemplateOf(workload);
      change(pod.spec.containers[0]!, pod);
    }
  });
/**
 * The real manifests with one setting of a unit's ConfigMap set to a value, or removed (undefined), in every
 * folder or only in `folder`.
 */
const withSetting = (
  { unit, folder }: { unit: string; folder?: string },
  setting: string,
  value: string | undefined,
) =>
  changedEach({ kind: 'ConfigMap', name: new RegExp(`^${unit}-config-`), folder }, (configMap) => {
    configMap.data = { ...configMap.data };
    if (value === undefined) delete configMap.data[setting];
    else configMap.data[setting] = value;
  });
const yamlEdit = (edit: (document: Record<string, unknown>) => void) => (text: string) => {
  const document = parse(text) as Record<string, unknown>;
  edit(document);
  return stringify(document);
};
const base64 = (text: string) => Buffer.from(text, 'utf8').toString('base64');

/** The real first container of a unit (base), copied. */
function realContainer(unit: string) {
  const { container, pod } = check.mainContainerOf(REAL, unit);
  return { container: structuredClone(container), pod: structuredClone(pod) };
}
const realWorkload = (unit: string) => structuredClone(workloadsOf(REAL.render(`base/${unit}`))[0]!);

const scratch = mkdtempSync(join(tmpdir(), 'shop-k8s-broken-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Broken {
  /** The exported check it breaks. */
  check: keyof typeof check;
  /** What is broken. */
  what: string;
  run: () => void;
  /** What the failure says. */
  says: RegExp;
}

/**
 * The probe check shown the real workload of a unit with one change: to its first container, or to files of
 * its image's sources (what the image answers).
 */
const probeCase = (
  what: string,
  unit: string,
  change: ((container: Container) => void) | Record<string, (text: string) => string>,
  says: RegExp,
): Broken => ({
  check: 'probesAskWhatTheImageAnswers',
  what,
  run: () => {
    const workload = realWorkload(unit);
    const container = podTemplateOf(workload).spec.containers[0]!;
    if (typeof change === 'function') change(container);
    const manifests = typeof change === 'function' ? REAL : withFiles(change);
    check.probesAskWhatTheImageAnswers(manifests, REAL.render(`base/${unit}`), workload, container);
  },
  says,
});

const CASES: Broken[] = [
  // Folders
  {
    check: 'buildsWithKustomize',
    what: 'a kustomization naming a file that does not exist',
    run: () => {
      writeFileSync(join(scratch, 'kustomization.yaml'), 'resources:\n  - deployment.yaml\n');
      check.buildsWithKustomize(REAL, relative(K8S_DIR, scratch));
    },
    says: /kustomize build .* failed/,
  },
  {
    check: 'hasBaseAndOverlays',
    what: 'no prod overlay',
    run: () => check.hasBaseAndOverlays(['base', 'overlays/dev']),
    says: /the base and the dev and prod overlays/,
  },
  {
    check: 'wholeComposesEveryUnit',
    what: 'the base without orders',
    run: () =>
      check.wholeComposesEveryUnit(
        withFiles({
          'k8s/base/kustomization.yaml': yamlEdit((document) => {
            document['resources'] = (document['resources'] as string[]).filter((unit) => unit !== 'orders');
          }),
        }),
      ),
    says: /composes every unit/,
  },
  {
    check: 'unitOverlaysBuildOnTheirBase',
    what: "dev's products built on the base of orders",
    run: () =>
      check.unitOverlaysBuildOnTheirBase(
        withFiles({
          'k8s/overlays/dev/products/kustomization.yaml': yamlEdit((document) => {
            document['resources'] = ['../../../base/orders'];
          }),
        }),
        'dev',
      ),
    says: /products/,
  },
  {
    check: 'sameAloneAndWhole',
    what: 'the whole base renders a label of orders that the unit alone does not',
    run: () =>
      check.sameAloneAndWhole(
        changedEach({ kind: 'Deployment', name: 'orders', folder: 'base' }, (deployment) => {
          deployment.metadata.labels = { ...deployment.metadata.labels, tier: 'whole-only' };
        }),
      ),
    says: /Deployment\/shop\/orders/,
  },
  // Workloads
  {
    check: 'includesEveryRoutedUnit',
    what: 'no Deployment of media',
    run: () => check.includesEveryRoutedUnit(routedUnits(REAL).filter((unit) => unit !== 'media')),
    says: /the units with a Deployment of a service or front-end/,
  },
  probeCase(
    "a service's readiness asking the liveness endpoint (ready before its database is)",
    'orders',
    (container) => {
      container.readinessProbe = { httpGet: { path: '/health/live', port: 'http' } };
    },
    /readiness probe/,
  ),
  probeCase(
    "a service's readiness on a port the container does not serve",
    'orders',
    (container) => {
      container.readinessProbe = { httpGet: { path: '/health/ready', port: 9999 } };
    },
    /readiness probe/,
  ),
  probeCase(
    "a front-end's liveness on a path nginx does not answer",
    'mf-catalog',
    (container) => {
      container.livenessProbe = { httpGet: { path: '/healthz', port: 'http' } };
    },
    /liveness probe/,
  ),
  probeCase(
    "Kong's readiness on the proxy port instead of the status listener",
    'kong',
    (container) => {
      container.readinessProbe = { httpGet: { path: '/status/ready', port: 'proxy' } };
    },
    /readiness probe/,
  ),
  probeCase(
    "NATS's readiness as a TCP connect, which JetStream's state does not answer",
    'nats',
    (container) => {
      container.readinessProbe = { tcpSocket: { port: 'client' } };
    },
    /readiness probe/,
  ),
  probeCase(
    "MongoDB's readiness as a TCP connect, ready before the replica set is",
    'mongodb',
    (container) => {
      container.readinessProbe = { tcpSocket: { port: 'mongodb' } };
    },
    /readiness probe/,
  ),
  probeCase(
    'a service without a liveness probe',
    'users',
    (container) => {
      delete container.livenessProbe;
    },
    /a liveness probe/,
  ),
  probeCase(
    'a service whose startup probe asks the readiness endpoint',
    'media',
    (container) => {
      (container as Container & { startupProbe?: unknown }).startupProbe = {
        httpGet: { path: '/health/ready', port: 'http' },
      };
    },
    /startup probe/,
  ),
  probeCase(
    "the page server's readiness on a port its container does not serve",
    'shell-pages',
    (container) => {
      container.readinessProbe = { httpGet: { path: '/health/ready', port: 4101 } };
    },
    /the container declares the port|readiness probe/,
  ),
  probeCase(
    'a render service that no longer answers /health/ready',
    'mf-catalog-render',
    {
      'mf-catalog/src/server/render-server.ts': (text) => text.replaceAll("'/health/ready'", "'/health/ok'"),
    },
    /render-server\.ts answers \/health\/ready/,
  ),
  probeCase(
    'a service kit that no longer answers /health/ready',
    'orders',
    {
      'libs/service-kit/src/health/health.controller.ts': (text) =>
        text.replace("@Get('ready')", "@Get('ok')"),
    },
    /answers \/health\/ready and \/health\/live/,
  ),
  {
    check: 'scalesEveryStatelessPart',
    what: 'Kong without an HPA',
    run: () =>
      check.scalesEveryStatelessPart(
        UNITS.filter((unit) => unit !== 'kong'),
        routedUnits(REAL),
      ),
    says: /the units scaled by an HPA/,
  },
  {
    check: 'moreReplicasInProd',
    what: 'prod allowing fewer replicas than dev',
    run: () =>
      check.moreReplicasInProd(
        changedEach({ kind: 'HorizontalPodAutoscaler', name: 'orders', folder: /^overlays\/prod/ }, (hpa) => {
          hpa.spec!.minReplicas = 1;
        }),
        'orders',
      ),
    says: /prod minReplicas/,
  },
  // Releases
  {
    check: 'prodRunsPackageVersion',
    what: 'a package.json version that prod does not run',
    run: () =>
      check.prodRunsPackageVersion(
        withFiles({
          'services/orders/package.json': (text) => text.replace(/"version": "[^"]+"/, '"version": "9.9.9"'),
        }),
        'orders',
      ),
    says: /the image prod runs orders from/,
  },
  {
    check: 'prodRunsPackageVersion',
    what: "prod running the catalog's render service at another version than mf-catalog's package.json",
    run: () =>
      check.prodRunsPackageVersion(
        changedContainer(
          { unit: 'mf-catalog-render', folder: 'overlays/prod/mf-catalog-render' },
          (container) => {
            container.image = `${check.IMAGE_REGISTRY}mf-catalog-render:0.1.9`;
          },
        ),
        'mf-catalog-render',
      ),
    says: /the image prod runs mf-catalog-render from/,
  },
  {
    check: 'pageServerNeverAheadOfShell',
    what: "prod's page server newer than the shell image whose files its pages load",
    run: () =>
      check.pageServerNeverAheadOfShell(
        changedContainer({ unit: 'shell-pages', folder: 'overlays/prod/shell-pages' }, (container) => {
          container.image = `${check.IMAGE_REGISTRY}shell-pages:0.3.0`;
        }),
        'prod',
      ),
    says: /shell-pages 0\.3\.0 is ahead of the shell image/,
  },
  // Domain services
  {
    check: 'serviceSettingsFromConfigMap',
    what: 'MONGO_URL in the ConfigMap',
    run: () =>
      check.serviceSettingsFromConfigMap(
        withSetting({ unit: 'orders' }, 'MONGO_URL', 'mongodb://mongodb:27017/orders'),
        'orders',
      ),
    says: /MONGO_URL is no setting/,
  },
  {
    check: 'devSecretNamesOwnDatabase',
    what: "a development Secret naming another service's database",
    run: () =>
      check.devSecretNamesOwnDatabase(
        changedEach({ kind: 'Secret', name: 'orders-mongodb' }, (secret) => {
          secret.data = {
            MONGO_URL: base64('mongodb://mongodb-0.mongodb-headless:27017/products?replicaSet=rs0'),
          };
        }),
        'orders',
      ),
    says: /the database of the URL/,
  },
  // Users service
  {
    check: 'usersSecretsCreatedByTheReadme',
    what: 'a README that leaves ADMIN_PASSWORD out of users-secrets',
    run: () =>
      check.usersSecretsCreatedByTheReadme(
        withFiles({
          'k8s/README.md': (text) =>
            text.replace(/--from-(file|literal)=ADMIN_PASSWORD=/, '--from-$1=ADMIN_PASS='),
        }),
      ),
    says: /the keys the README puts in users-secrets/,
  },
  // Network policies
  {
    check: 'admitsHttpFromItsCallerOnly',
    what: "the catalog's render service admitting Kong too (browsers could ask it for fragments)",
    run: () =>
      check.admitsHttpFromItsCallerOnly(
        changedEach({ kind: 'NetworkPolicy', name: 'mf-catalog-render' }, (policy) => {
          policy.spec!.ingress![0]!.from!.push({
            podSelector: { matchLabels: { 'app.kubernetes.io/name': 'kong' } },
          });
        }),
        'mf-catalog-render',
      ),
    says: /mf-catalog-render's ingress/,
  },
  {
    check: 'egressMatchesIngress',
    what: "the render service let out to Kong's proxy, which Kong admits from the shell's nginx only",
    run: () =>
      check.egressMatchesIngress(
        changedEach({ kind: 'NetworkPolicy', name: 'kong' }, (policy) => {
          policy.spec!.ingress = [
            {
              from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'shell' } } }],
              ports: [{ protocol: 'TCP', port: 'proxy' }],
            },
          ];
        }),
      ),
    says: /mf-catalog-render egress .*NetworkPolicy refuses port proxy/,
  },
  {
    check: 'settingsNameReachableServices',
    what: 'the page server calling the render service on a port its Service lacks',
    run: () =>
      check.settingsNameReachableServices(
        withSetting({ unit: 'shell-pages' }, 'RENDER_CATALOG_URL', 'http://mf-catalog-render:4102'),
        'shell-pages',
        undefined,
      ),
    says: /Service mf-catalog-render has port 4102/,
  },
  {
    check: 'settingsNameReachableServices',
    what: 'the render service reading through Kong without a policy letting it out to Kong',
    run: () =>
      check.settingsNameReachableServices(
        changedEach({ kind: 'NetworkPolicy', name: 'mf-catalog-render' }, (policy) => {
          policy.spec!.egress = [];
        }),
        'mf-catalog-render',
        'prod',
      ),
    says: /mf-catalog-render's NetworkPolicy lets it reach kong \(API_URL\)/,
  },
  {
    check: 'egressMatchesIngress',
    what: 'the render service let out to NATS, which NATS admits from the services only (as before its cache)',
    run: () =>
      check.egressMatchesIngress(
        changedEach({ kind: 'NetworkPolicy', name: 'nats' }, (policy) => {
          policy.spec!.ingress![0]!.from = policy.spec!.ingress![0]!.from!.filter(
            (peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] !== 'mf-catalog-render',
          );
        }),
        'prod',
      ),
    says: /mf-catalog-render egress .*NetworkPolicy refuses port client/,
  },
  {
    check: 'renderCacheHearsNats',
    what: 'the render service without NATS_URL (it would render every request, no cache)',
    run: () =>
      check.renderCacheHearsNats(
        withSetting({ unit: 'mf-catalog-render' }, 'NATS_URL', undefined),
        'mf-catalog-render',
        undefined,
      ),
    says: /mf-catalog-render's NATS_URL names every NATS server/,
  },
  {
    check: 'renderCacheHearsNats',
    what: "the render service's prod NATS_URL naming the Service nats only, not every server of the cluster",
    run: () =>
      check.renderCacheHearsNats(
        withSetting(
          { unit: 'mf-catalog-render', folder: 'overlays/prod/mf-catalog-render' },
          'NATS_URL',
          'nats://nats:4222',
        ),
        'mf-catalog-render',
        'prod',
      ),
    says: /mf-catalog-render's NATS_URL names every NATS server/,
  },
  {
    check: 'renderCacheHearsNats',
    what: 'the render service told where NATS is, but not let out to it',
    run: () =>
      check.renderCacheHearsNats(
        changedEach({ kind: 'NetworkPolicy', name: 'mf-catalog-render' }, (policy) => {
          policy.spec!.egress = policy.spec!.egress!.filter(
            (rule: NetworkPolicyRule) =>
              !rule.to?.some((peer) => peer.podSelector?.matchLabels?.['app.kubernetes.io/name'] === 'nats'),
          );
        }),
        'mf-catalog-render',
        'dev',
      ),
    says: /mf-catalog-render's NetworkPolicy lets it reach NATS on 4222/,
  },
  {
    check: 'settingsNameReachableServices',
    what: "nginx given the page server's short name, which its resolver cannot find",
    run: () =>
      check.settingsNameReachableServices(
        changedContainer({ unit: 'shell' }, (container) => {
          container.env = [{ name: 'PAGES_URL', value: 'http://shell-pages:4100' }];
        }),
        'shell',
        undefined,
        { fullNames: true },
      ),
    says: /PAGES_URL is a full name/,
  },
  {
    check: 'egressMatchesIngress',
    what: "Kong let out to products, which products' own policy refuses",
    run: () =>
      check.egressMatchesIngress(
        changedEach({ kind: 'NetworkPolicy', name: 'products' }, (policy) => {
          policy.spec!.ingress = [];
        }),
      ),
    says: /NetworkPolicy refuses port/,
  },
  // Kong
  {
    check: 'kongHostsHaveServices',
    what: 'a Service orders on another port than kong.yml calls',
    run: () =>
      check.kongHostsHaveServices(
        changedEach({ kind: 'Service', name: 'orders' }, (service) => {
          service.spec!.ports![0]!.port = 3999;
        }),
      ),
    says: /Service "orders"/,
  },
  {
    check: 'routedUnitsAreKongHosts',
    what: 'kong.yml calling orders by another host name',
    run: () =>
      check.routedUnitsAreKongHosts(
        withFiles({
          'gateway/kong.yml': (text) => text.replace('http://orders:3002', 'http://orders-api:3002'),
        }),
      ),
    says: /no service with host "orders"/,
  },
  {
    check: 'kongLoadsKongYml',
    what: 'Kong with a database',
    run: () =>
      check.kongLoadsKongYml(
        changedContainer({ unit: 'kong' }, (container) => {
          container.env = container.env?.map((variable) =>
            variable.name === 'KONG_DATABASE' ? { name: 'KONG_DATABASE', value: 'postgres' } : variable,
          );
        }),
      ),
    says: /KONG_DATABASE/,
  },
  {
    check: 'kongLoadsKongYml',
    what: 'a ConfigMap that is not gateway/kong.yml',
    run: () => check.kongLoadsKongYml(withFiles({ 'gateway/kong.yml': (text) => `${text}\n# changed\n` })),
    says: /holds gateway\/kong\.yml/,
  },
  // Shell
  {
    check: 'remotesManifestNamesVersions',
    what: "a remote's URL outside its version's path",
    run: () =>
      check.remotesManifestNamesVersions(
        changedEach({ kind: 'ConfigMap', name: /^shell-remotes-/ }, (config) => {
          const remotes = JSON.parse(config.data!['remotes.json']!) as {
            remotes: { catalog: { url: string } };
          };
          remotes.remotes.catalog.url = '/remotes/catalog/mf-manifest.json';
          config.data!['remotes.json'] = JSON.stringify(remotes);
        }),
      ),
    says: /catalog's url/,
  },
  {
    check: 'remotesManifestIsTheOverlays',
    what: "a ConfigMap that is not the overlay's remotes.json",
    run: () =>
      check.remotesManifestIsTheOverlays(
        withFiles({ 'k8s/overlays/dev/shell/remotes.json': (text) => `${text}\n` }),
        'dev',
      ),
    says: /the overlay's remotes\.json/,
  },
  {
    check: 'remotesNeverAheadOfImages',
    what: 'remotes.json naming a catalog its image has not published',
    run: () =>
      check.remotesNeverAheadOfImages(
        changedEach({ kind: 'ConfigMap', name: /^shell-remotes-/ }, (config) => {
          config.data!['remotes.json'] = config
            .data!['remotes.json']!.replaceAll('catalog/0.', 'catalog/9.')
            .replace(/("catalog": \{ "version": ")[^"]+/, '$19.0.0');
        }),
        'dev',
      ),
    says: /ahead of its image/,
  },
  {
    check: 'shellReleaseChosen',
    what: 'a shell release its image does not hold',
    run: () =>
      check.shellReleaseChosen(
        changedEach({ kind: 'ConfigMap', name: /^shell-release-/ }, (config) => {
          config.data!['shell-release.conf'] = 'set $shell_release "9.0.0";\n';
        }),
      ),
    says: /ahead of the shell's image/,
  },
  // Production data tier
  ...[
    { setting: 'NATS_URL', value: 'nats://nats:4222', says: /orders's NATS_URL names every NATS server/ },
    { setting: 'NATS_STREAM_REPLICAS', value: '1', says: /orders's NATS_STREAM_REPLICAS/ },
  ].map(({ setting, value, says }): Broken => ({
    check: 'prodServiceNamesEveryMember',
    what: `a service's prod ${setting} of ${value}`,
    run: () =>
      check.prodServiceNamesEveryMember(
        withSetting({ unit: 'orders', folder: 'overlays/prod/orders' }, setting, value),
        'orders',
      ),
    says,
  })),
  {
    check: 'prodServiceNamesEveryMember',
    what: 'a prod MONGO_URL naming mongodb-0 only',
    run: () =>
      check.prodServiceNamesEveryMember(
        changedEach({ kind: 'Secret', name: 'orders-mongodb', folder: 'examples/prod-secrets' }, (secret) => {
          secret.data = {
            MONGO_URL: base64('mongodb://mongodb-0.mongodb-headless:27017/orders?replicaSet=rs0'),
          };
        }),
        'orders',
      ),
    says: /orders-mongodb's MONGO_URL/,
  },
  // Images
  ...[
    { what: "an image whose user is not the pod's", dockerfile: 'docker/service.Dockerfile', unit: 'orders' },
    {
      what: "a render image whose user is not the pod's",
      dockerfile: 'docker/render.Dockerfile',
      unit: 'mf-catalog-render',
    },
  ].map(({ what, dockerfile, unit }): Broken => ({
    check: 'runsTheImagesUserAndPort',
    what,
    run: () =>
      check.runsTheImagesUserAndPort(
        withFiles({ [dockerfile]: (text) => text.replace(/^USER \d+:\d+$/m, 'USER 1000:1000') }),
        unit,
      ),
    says: /the pod runs as the image's user/,
  })),
  {
    check: 'runsTheImagesUserAndPort',
    what: 'nginx listening on another port than the container declares',
    run: () =>
      check.runsTheImagesUserAndPort(
        withFiles({
          'docker/nginx/remote.conf.template': (text) => text.replace(/listen \d+/, 'listen 8081'),
        }),
        'mf-catalog',
      ),
    says: /nginx listens on the container port/,
  },
  {
    check: 'runsTheImagesUserAndPort',
    what: 'the page server told to listen on another port than its container declares',
    run: () =>
      check.runsTheImagesUserAndPort(withSetting({ unit: 'shell-pages' }, 'PORT', '4000'), 'shell-pages'),
    says: /PORT is the container port http/,
  },
];

describe('each check of the manifests refuses a manifest that breaks it', () => {
  it.each(CASES.map((broken) => ({ ...broken, name: `${broken.check}: ${broken.what}` })))(
    '$name',
    ({ run, says }) => {
      expect(run).toThrow(says);
    },
  );

  it('the same checks pass on the real manifests those cases were made from', () => {
    // The cases above change one thing each; without it the check passes (manifests.spec.ts runs them all).
    check.probesAskWhatTheImageAnswers(
      REAL,
      REAL.render('base/orders'),
      realWorkload('orders'),
      realContainer('orders').container,
    );
  });

  it('leaves no check without a broken manifest', () => {
    const helpers = ['unitsOfComponent', 'routedUnits', 'serviceUnits', 'rendererUnits', 'mainContainerOf'];
    const checks = Object.entries(check)
      .filter(([name, value]) => typeof value === 'function' && !helpers.includes(name))
      .map(([name]) => name);
    expect(checks.filter((name) => !CASES.some((broken) => broken.check === name))).toEqual([]);
  });
});
