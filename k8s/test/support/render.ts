import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parse, parseAllDocuments } from 'yaml';
import { checkerPath, repoRoot } from '@shop/infra';

export const REPO_ROOT = repoRoot();
export const K8S_DIR = join(REPO_ROOT, 'k8s');
export const ENVIRONMENTS = ['dev', 'prod'] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

export interface Probe {
  httpGet?: { path?: string; port: string | number };
  tcpSocket?: { port: string | number };
  exec?: { command: string[] };
}

export interface SecurityContext {
  runAsNonRoot?: boolean;
  runAsUser?: number;
  runAsGroup?: number;
  fsGroup?: number;
  allowPrivilegeEscalation?: boolean;
  readOnlyRootFilesystem?: boolean;
  capabilities?: { drop?: string[] };
  seccompProfile?: { type: string };
}

export type Resources = Partial<Record<'cpu' | 'memory' | 'ephemeral-storage', string>>;

export interface Container {
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
  resources?: { requests?: Resources; limits?: Resources };
  securityContext?: SecurityContext;
  volumeMounts?: { name: string; mountPath: string; subPath?: string }[];
}

export interface PodTemplate {
  metadata: { labels?: Record<string, string> };
  spec: {
    serviceAccountName?: string;
    automountServiceAccountToken?: boolean;
    securityContext?: SecurityContext;
    containers: Container[];
    volumes?: {
      name: string;
      configMap?: { name: string };
      emptyDir?: { sizeLimit?: string; medium?: string };
    }[];
    affinity?: { podAntiAffinity?: Record<string, unknown> };
    topologySpreadConstraints?: { topologyKey: string }[];
  };
}

export interface NetworkPolicyPeer {
  podSelector?: { matchLabels?: Record<string, string> };
  namespaceSelector?: { matchLabels?: Record<string, string> };
  ipBlock?: { cidr: string; except?: string[] };
}

export interface NetworkPolicyRule {
  to?: NetworkPolicyPeer[];
  from?: NetworkPolicyPeer[];
  ports?: { protocol?: string; port?: string | number }[];
}

export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; resourceVersion?: string };
  data?: Record<string, string>;
  automountServiceAccountToken?: boolean;
  spec?: {
    replicas?: number;
    selector?: { matchLabels?: Record<string, string> } & Record<string, string>;
    template?: PodTemplate;
    ports?: { name?: string; port: number; targetPort?: string | number }[];
    podSelector?: { matchLabels?: Record<string, string> };
    policyTypes?: string[];
    ingress?: NetworkPolicyRule[];
    egress?: NetworkPolicyRule[];
    scaleTargetRef?: { apiVersion: string; kind: string; name: string };
    minReplicas?: number;
    maxReplicas?: number;
    maxUnavailable?: number | string;
    minAvailable?: number | string;
  };
}

/** The path of a checker installed by libs/infra/ensure-tools.mjs, or a failure that says how to get it. */
export const tool = checkerPath;

const rendered = new Map<string, KubeObject[]>();

/** A plain `kustomize build` of a folder of k8s/ (relative path), parsed; throws with kustomize's message. */
export function kustomize(folder: string): KubeObject[] {
  const cached = rendered.get(folder);
  if (cached) return cached;
  const result = spawnSync(tool('kustomize'), ['build', join(K8S_DIR, folder)], { encoding: 'utf8' });
  if (result.error) throw result.error;
  if (result.status !== 0) throw new Error(`kustomize build k8s/${folder} failed:\n${result.stderr}`);
  const objects = parseAllDocuments(result.stdout).map((document) => {
    if (document.errors.length > 0) throw document.errors[0];
    return document.toJS() as KubeObject;
  });
  rendered.set(folder, objects);
  return objects;
}

/** For choosing test cases only: a folder that does not build fails its own "builds" test instead. */
export function kustomizeOrNothing(folder: string): KubeObject[] {
  try {
    return kustomize(folder);
  } catch {
    return [];
  }
}

const kindOf = (dir: string) =>
  (parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as { kind?: string }).kind;

/** Every folder with a kustomization that builds on its own (components are built by their includers). */
export function kustomizationFolders(dir = K8S_DIR): string[] {
  const folders: string[] = [];
  if (existsSync(join(dir, 'kustomization.yaml')) && kindOf(dir) !== 'Component') {
    folders.push(relative(K8S_DIR, dir) || '.');
  }
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'test') {
      folders.push(...kustomizationFolders(join(dir, entry.name)));
    }
  }
  return folders.sort();
}

/** The deployable units: the folders directly under k8s/base. */
export const UNITS = readdirSync(join(K8S_DIR, 'base'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

/** A unit's folder: the base one, or its overlay in an environment. */
export const unitFolder = (unit: string, environment?: Environment) =>
  environment ? `overlays/${environment}/${unit}` : `base/${unit}`;
/** The whole shop: the base, or an environment. */
export const wholeFolder = (environment?: Environment) => (environment ? `overlays/${environment}` : 'base');
/** The base and each environment, as test-case names. */
export const SCENES: { scene: string; environment?: Environment }[] = [
  { scene: 'base' },
  ...ENVIRONMENTS.map((environment) => ({ scene: environment, environment })),
];

export const key = (object: KubeObject) =>
  `${object.kind}/${object.metadata.namespace ?? ''}/${object.metadata.name}`;
export const workloadsOf = (objects: KubeObject[]) =>
  objects.filter((object) => object.kind === 'Deployment' || object.kind === 'StatefulSet');
export const podTemplateOf = (workload: KubeObject): PodTemplate => {
  const template = workload.spec?.template;
  if (!template) throw new Error(`${key(workload)} has no pod template`);
  return template;
};
export const componentOf = (workload: KubeObject) =>
  podTemplateOf(workload).metadata.labels?.['app.kubernetes.io/component'];

export function matches(
  selector: Record<string, string> | undefined,
  labels: Record<string, string> | undefined,
) {
  return (
    !!selector &&
    Object.keys(selector).length > 0 &&
    Object.entries(selector).every(([name, value]) => labels?.[name] === value)
  );
}

/** Compares two x.y.z versions: negative, zero or positive like a sort comparator. */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) => version.split('-')[0]!.split('.').map(Number);
  const [left, right] = [parts(a), parts(b)];
  for (let index = 0; index < 3; index += 1) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return difference;
  }
  return 0;
}
