/** Versions of the installed tools and container images, kept once in `libs/infra/versions.json`. */
export interface ToolVersions {
  mongoJavaServer: string;
  natsServer: string;
  images: { mongo: string; nats: string };
  kustomize: string;
  kubeScore: string;
  conftest: string;
  kubernetesValidate: string;
  hadolint: string;
  actionlint: string;
  composeGo: string;
  jaeger: string;
  victoriaMetrics: string;
  mailpit: string;
  oasdiff?: string;
  schemathesis?: string;
  kubernetes: string;
  etcd: string;
  kwok: string;
  prometheusOperator: string;
  argoRollouts: string;
}

/** The local Kubernetes control plane of k8s/test/cluster: its binaries and the CRD folders it installs. */
export interface ControlPlanePaths {
  kubeApiserver: string;
  kubeControllerManager: string;
  kubeScheduler: string;
  kubectl: string;
  etcd: string;
  kwok: string;
  /** prometheus-operator's CRDs (ServiceMonitor, PrometheusRule, ...), as YAML files. */
  prometheusOperatorCrds: string;
  /** Argo Rollouts' CRDs (Rollout, AnalysisTemplate, ...), as YAML files. */
  argoRolloutsCrds: string;
}

export type CheckerName =
  'kustomize' | 'kubeScore' | 'conftest' | 'kubernetesValidate' | 'hadolint' | 'actionlint' | 'composeConfig';

export interface ToolPaths {
  toolsDir: string;
  /** Where the embedded database's launcher is built (classes/ and lib/). */
  mongoDir: string;
  mongoClasspath: string;
  /** The nats-server built from its Go module; `natsServer` falls back to Debian's when it is missing. */
  ownNatsServer: string;
  natsServer: string;
  debianNatsServer: string;
  chromium: string;
  deck: string;
  nginx: string;
  /** The checkers of k8s/ and tools/ship (installed with `--browser`, as npm test does). */
  checkers: Record<CheckerName, string>;
  controlPlane: ControlPlanePaths;
  /** The trace viewer (Jaeger v2 all-in-one) and the metrics store the stack runs beside the shop. */
  jaeger: string;
  victoriaMetrics: string;
  /** VictoriaMetrics' rule evaluator: the shipped alert rules, evaluated against the stack's metrics. */
  vmalert: string;
  /** The mail catcher (Mailpit: an SMTP server and a web inbox) the stack gives the users service. */
  mailpit: string;
  /** The breaking-change check of OpenAPI documents, and the API fuzzer of the browser tests. */
  oasdiff: string;
  schemathesis: string;
}

/** The monorepo root: the nearest folder above this library (or the working directory) holding `nx.json`. */
export function repoRoot(): string;
/** Reads `libs/infra/versions.json`, the single place the tool versions are pinned. */
export function toolVersions(): ToolVersions;
/** Where `libs/infra/ensure-tools.mjs` installs each tool. */
export function toolPaths(versions?: ToolVersions): ToolPaths;
/** Whether Jaeger and VictoriaMetrics are wanted: yes unless SHOP_OBSERVABILITY is 0 (or false, off, no). */
export function observabilityWanted(env?: NodeJS.ProcessEnv): boolean;
