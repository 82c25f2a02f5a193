import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  K8S_DIR,
  type KubeObject,
  SCENES,
  UNITS,
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
 * that reach declared ports, traffic limited both ways) are OPA policies in k8s/policy, run by conftest
 * as any team's pipeline would run them: `kustomize build <folder> | conftest test --combine --policy
 * k8s/policy -`. Each rule has failing fixtures in k8s/policy/fixtures_test.rego (`conftest verify`).
 * What needs the repository's other files (images, nginx, routes, versions) stays in support/checks.ts.
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

/** What the policies say of a set of objects, as one multi-document YAML on stdin: each failure's message. */
function failuresOf(objects: KubeObject[]): string[] {
  const yaml = objects.map((object) => stringify(object)).join('---\n');
  const { stdout, stderr } = conftest(['test', '--combine', '--output', 'json', '-'], yaml);
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

// And the monitoring objects (their NetworkPolicy is the shop's too). Not k8s/deploy-identities: it
// lives outside the shop's namespace, and is the platform's own.
const FOLDERS = [
  ...SCENES.flatMap(({ environment }) => [
    wholeFolder(environment),
    ...UNITS.map((unit) => unitFolder(unit, environment)),
  ]),
  'monitoring',
];

/** The real orders unit, with one change. */
function ordersWith(change: (objects: KubeObject[], pod: ReturnType<typeof podTemplateOf>) => void) {
  const objects = structuredClone(kustomize('base/orders'));
  change(objects, podTemplateOf(workloadsOf(objects)[0]!));
  return objects;
}
const find = (objects: KubeObject[], kind: string) => objects.find((object) => object.kind === kind)!;

describe('the shop policies (k8s/policy, OPA by conftest)', () => {
  it('pass their own tests: a unit that follows them, and one broken fixture per rule', () => {
    const { status, stdout, stderr } = conftest(['verify', '--output', 'json']);
    const results = JSON.parse(stdout) as ConftestResult[];
    const failed = results.flatMap((result) => result.failures ?? []).map((failure) => failure.msg);
    expect(failed, stderr).toEqual([]);
    expect(status).toBe(0);
    // fixtures_test.rego has a test per rule and more; fewer means a file of tests was not read.
    expect(results.reduce((sum, result) => sum + result.successes, 0)).toBeGreaterThanOrEqual(30);
  });

  it.each(FOLDERS)('k8s/%s breaks none', (folder) => {
    expect(failuresOf(kustomize(folder))).toEqual([]);
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
});
