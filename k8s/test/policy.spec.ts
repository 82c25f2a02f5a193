import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  type Environment,
  K8S_DIR,
  type KubeObject,
  SCENES,
  UNITS,
  kustomizationFolders,
  kustomize,
  podTemplateOf,
  tool,
  unitFolder,
  wholeFolder,
  workloadsOf,
} from './support/render';

/**
 * The rules every object of the shop follows whoever owns it (the shop's namespace and label,
 * resources, the restricted Pod Security Standard as the shop's user, pinned images, its own
 * ServiceAccount without a token, replicas spread over nodes, an HPA and a disruption budget, Services
 * that reach declared ports, traffic limited both ways, the shop's own parts on releases of its own
 * images), what one render says of the users service, Kong and the namespace's own policies, and who
 * the services and front-ends admit, what the services reach and which keys they hold (by their
 * component label), are OPA policies in k8s/policy (package main), run by conftest
 * as any team's pipeline would run them: `kustomize build <folder> | conftest test --combine --policy
 * k8s/policy -`. A production render is also held to package prod (NATS and MongoDB as sets of three,
 * `--namespace main --namespace prod`), and every other folder that builds (the examples, the deploy
 * identities) to package committed alone (no private key; main takes it in). Each rule has failing
 * fixtures in k8s/policy/fixtures_test.rego (`conftest verify`). What needs the repository's other files
 * (images, nginx, routes, versions) or compares renders stays in support/checks.ts.
 */

const POLICY = join(K8S_DIR, 'policy');

function conftest(args: string[], input?: string) {
  const result = spawnSync(tool('conftest'), [...args, '--no-color', '--policy', POLICY], {
    input,
    encoding: 'utf8',
  });
  if (result.error) throw result.error;
  return result;
}

interface ConftestResult {
  filename: string;
  successes: number;
  failures?: { msg: string }[];
  warnings?: { msg: string }[];
}

/**
 * What the policies of some packages (conftest's namespaces) say of a set of objects, as one
 * multi-document YAML on stdin: each failure's message.
 */
function failuresOf(objects: KubeObject[], packages = ['main']): string[] {
  const yaml = objects.map((object) => stringify(object)).join('---\n');
  const namespaces = packages.flatMap((name) => ['--namespace', name]);
  const { stdout, stderr } = conftest(['test', '--combine', '--output', 'json', ...namespaces, '-'], yaml);
  let results: ConftestResult[];
  try {
    results = JSON.parse(stdout) as ConftestResult[];
  } catch {
    throw new Error(`conftest test failed to run:\n${stderr}${stdout}`);
  }
  expect(
    results.reduce((sum, result) => sum + result.successes + (result.failures?.length ?? 0), 0),
    'rules evaluated',
  ).toBeGreaterThan(0);
  return results.flatMap((result) =>
    [...(result.failures ?? []), ...(result.warnings ?? [])].map((f) => f.msg),
  );
}

/** The packages a render of the shop is held to: production's adds its own. */
const packagesOf = (environment?: Environment) => (environment === 'prod' ? ['main', 'prod'] : ['main']);
// And the monitoring objects (their NetworkPolicy is the shop's too).
const SHOP_RENDERS = [
  ...SCENES.flatMap(({ environment }) =>
    [wholeFolder(environment), ...UNITS.map((unit) => unitFolder(unit, environment))].map((folder) => ({
      folder,
      packages: packagesOf(environment),
    })),
  ),
  { folder: 'monitoring', packages: ['main'] },
];
// Not the shop's units: k8s/deploy-identities lives outside the shop's namespace and is the platform's
// own, the examples are Secrets and canaries an environment applies itself. No private key in them either.
const OTHER_RENDERS = kustomizationFolders()
  .filter((folder) => !SHOP_RENDERS.some((render) => render.folder === folder))
  .map((folder) => ({ folder, packages: ['committed'] }));
const RENDERS = [...SHOP_RENDERS, ...OTHER_RENDERS].map((render) => ({
  ...render,
  named: render.packages.join(' and '),
}));

/** A real folder's objects, with one change. */
function renderedWith(folder: string, change: (objects: KubeObject[]) => void) {
  const objects = structuredClone(kustomize(folder));
  change(objects);
  return objects;
}
/** The real orders unit, with one change. */
const ordersWith = (change: (objects: KubeObject[], pod: ReturnType<typeof podTemplateOf>) => void) =>
  renderedWith('base/orders', (objects) => change(objects, podTemplateOf(workloadsOf(objects)[0]!)));
const find = (objects: KubeObject[], kind: string, name?: string) =>
  objects.find((object) => object.kind === kind && (name === undefined || object.metadata.name === name))!;
const PRIVATE_KEY = '-----BEGIN PRIVATE KEY-----\nMC4CAQAwBQYDK2VwBCIEIA==\n-----END PRIVATE KEY-----\n';

describe('the shop policies (k8s/policy, OPA by conftest)', () => {
  it('pass their own tests: a unit that follows them, and one broken fixture per rule', () => {
    const { status, stdout, stderr } = conftest(['verify', '--output', 'json']);
    const results = JSON.parse(stdout) as ConftestResult[];
    const failed = results.flatMap((result) => result.failures ?? []).map((failure) => failure.msg);
    expect(failed, stderr).toEqual([]);
    expect(status).toBe(0);
    // fixtures_test.rego has a test per rule and more; fewer means a file of tests was not read.
    expect(results.reduce((sum, result) => sum + result.successes, 0)).toBeGreaterThanOrEqual(120);
  });

  it.each(RENDERS)('k8s/$folder breaks none of package $named', ({ folder, packages }) => {
    expect(failuresOf(kustomize(folder), packages)).toEqual([]);
  });

  it.each([
    {
      what: 'no ephemeral-storage limit',
      objects: ordersWith((_objects, pod) => {
        delete pod.spec.containers[0]!.resources!.limits!['ephemeral-storage'];
      }),
      says: 'Deployment/orders container orders: no ephemeral-storage in resources.limits',
    },
    {
      what: 'running as root',
      objects: ordersWith((_objects, pod) => {
        pod.spec.containers[0]!.securityContext = {
          ...pod.spec.containers[0]!.securityContext,
          runAsUser: 0,
        };
      }),
      says: 'Deployment/orders container orders: not restricted: needs runAsUser 10001 (numeric, so the kubelet can check runAsNonRoot)',
    },
    {
      what: 'a floating image',
      objects: ordersWith((_objects, pod) => {
        pod.spec.containers[0]!.image = 'registry.example.com/shop/orders:0.1';
      }),
      says: 'Deployment/orders container orders: image registry.example.com/shop/orders:0.1 is not pinned to a full x.y.z version or a digest',
    },
    {
      what: 'the API token mounted',
      objects: ordersWith((_objects, pod) => {
        pod.spec.automountServiceAccountToken = true;
      }),
      says: 'Deployment/orders: the pod mounts an API token (automountServiceAccountToken is not false)',
    },
    {
      what: 'no anti-affinity',
      objects: ordersWith((_objects, pod) => {
        delete pod.spec.affinity;
      }),
      says: 'Deployment/orders: no pod anti-affinity on kubernetes.io/hostname selecting its own pods',
    },
    {
      what: 'fixed replicas',
      objects: ordersWith((objects) => {
        find(objects, 'Deployment').spec!.replicas = 3;
      }),
      says: 'Deployment/orders: sets replicas, which the HPA owns',
    },
    {
      what: 'a Service targeting an undeclared port',
      objects: ordersWith((objects) => {
        find(objects, 'Service').spec!.ports![0]!.targetPort = 'web';
      }),
      says: 'Service/orders: port 3002 targets web, which no container of its pods declares',
    },
    {
      what: 'its Deployment in the default namespace',
      objects: ordersWith((objects) => {
        find(objects, 'Deployment').metadata.namespace = 'default';
      }),
      says: 'Deployment/orders: not in the shop namespace',
    },
    {
      what: 'ingress limited only',
      objects: ordersWith((objects) => {
        find(objects, 'NetworkPolicy').spec!.policyTypes = ['Ingress'];
      }),
      says: 'Deployment/orders: no NetworkPolicy of its own limits its Egress',
    },
  ])('refuse the real orders unit with $what', ({ objects, says }) => {
    expect(failuresOf(objects)).toEqual([says]);
  });

  // The rules of one unit, of production or of every folder, each shown a real render it is run on.
  it.each([
    {
      what: 'the users ConfigMap holding ADMIN_PASSWORD',
      folder: 'base/users',
      change: (objects: KubeObject[]) => {
        const config = find(objects, 'ConfigMap');
        config.data = { ...config.data, ADMIN_PASSWORD: 'admin-password-123' };
      },
      says: [
        /^ConfigMap\/users-config-\w+: holds ADMIN_PASSWORD, a secret the users service takes from a Secret$/,
      ],
    },
    {
      what: 'the namespace admitting everything',
      folder: 'overlays/dev/namespace',
      change: (objects: KubeObject[]) => {
        find(objects, 'NetworkPolicy', 'default-deny').spec!.ingress = [{}];
      },
      says: ['NetworkPolicy/default-deny: admits traffic: a default deny has no ingress rule'],
    },
    {
      what: 'Kong behind a ClusterIP in dev',
      folder: 'overlays/dev/kong',
      change: (objects: KubeObject[]) => {
        (find(objects, 'Service', 'kong').spec as { type?: string }).type = 'ClusterIP';
      },
      says: [
        "Service/kong: type ClusterIP, not LoadBalancer: nothing outside the cluster reaches Kong's proxy",
      ],
    },
    {
      what: 'NATS as a single server in prod',
      folder: 'overlays/prod/nats',
      change: (objects: KubeObject[]) => {
        find(objects, 'StatefulSet', 'nats').spec!.replicas = 1;
      },
      says: [
        'StatefulSet/nats: --routes name nats://nats-0.nats-headless:6222,nats://nats-1.nats-headless:6222,nats://nats-2.nats-headless:6222, not every member: nats://nats-0.nats-headless:6222',
        'StatefulSet/nats: 1 replicas, not the 3 members of a production set',
      ],
    },
    {
      what: "Kong's status port open to anyone in prod",
      folder: 'overlays/prod/kong',
      change: (objects: KubeObject[]) => {
        find(objects, 'NetworkPolicy', 'kong').spec!.ingress![0]!.ports!.push({
          protocol: 'TCP',
          port: 'status',
        });
      },
      says: [
        `Deployment/kong: its NetworkPolicy's ingress is [{"ports": [{"port": "proxy", "protocol": "TCP"}, {"port": "status", "protocol": "TCP"}]}], not anyone on the port proxy only`,
      ],
    },
    {
      what: 'orders admitting every pod over HTTP',
      folder: 'base/orders',
      change: (objects: KubeObject[]) => {
        find(objects, 'NetworkPolicy').spec!.ingress = [
          { from: [{ podSelector: {} }], ports: [{ protocol: 'TCP', port: 'http' }] },
        ];
      },
      says: [
        'Deployment/orders: no NetworkPolicy of its own admits Kong (app.kubernetes.io/name: kong) on its port http',
        'NetworkPolicy/orders: admits Deployment/orders from {"podSelector": {}}, not from pods named by app.kubernetes.io/name',
      ],
    },
    {
      // Alone, k8s/overlays/dev/shell cannot tell what mf-catalog is; the whole environment can.
      what: "the shell's nginx admitting a front-end besides its page server",
      folder: 'overlays/dev',
      change: (objects: KubeObject[]) => {
        find(objects, 'NetworkPolicy', 'shell').spec!.ingress![0]!.from!.push({
          podSelector: { matchLabels: { 'app.kubernetes.io/name': 'mf-catalog' } },
        });
      },
      says: [
        'NetworkPolicy/shell: admits Deployment/shell on http from mf-catalog: mf-catalog is no server-rendering pod (component renderer), the only caller of a front-end besides Kong',
      ],
    },
    {
      what: 'orders given the signing key',
      folder: 'base/orders',
      change: (objects: KubeObject[]) => {
        podTemplateOf(workloadsOf(objects)[0]!).spec.containers[0]!.env!.push({
          name: 'JWT_PRIVATE_KEY',
          valueFrom: { secretKeyRef: { name: 'users-secrets', key: 'JWT_PRIVATE_KEY' } },
        });
      },
      says: [
        'Deployment/orders container orders: given JWT_PRIVATE_KEY: only the users service holds the signing key',
        'Deployment/orders container orders: reads the Secret users-secrets (env JWT_PRIVATE_KEY): only the users service holds the signing key',
      ],
    },
    {
      what: 'a private key among the example Secrets',
      folder: 'examples/dev-secrets',
      change: (objects: KubeObject[]) => {
        find(objects, 'Secret', 'users-mongodb').data!.JWT_PRIVATE_KEY =
          Buffer.from(PRIVATE_KEY).toString('base64');
      },
      says: ['Secret/users-mongodb: a private key at data.JWT_PRIVATE_KEY (decoded from base64)'],
    },
  ])('refuse the real k8s/$folder with $what', ({ folder, change, says }) => {
    // Held to the packages it is tested with above: a production render not held to package prod would
    // pass that test, and fail this one.
    const { packages } = RENDERS.find((render) => render.folder === folder)!;
    expect(failuresOf(renderedWith(folder, change), packages)).toEqual(
      says.map((message) => (typeof message === 'string' ? message : expect.stringMatching(message))),
    );
  });

  it("keep production's rules in a package of their own: the base's single NATS server breaks them", () => {
    expect(failuresOf(kustomize('base/nats'), ['main', 'prod'])).toContain(
      'StatefulSet/nats: 1 replicas, not the 3 members of a production set',
    );
  });
});
