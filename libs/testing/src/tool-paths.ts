import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, dirname, join } from 'node:path';

/** Versions of the installed tools and container images, kept once in `tools/infra/versions.json`. */
export interface ToolVersions {
  mongoJavaServer: string;
  natsServer: string;
  images: { mongo: string; nats: string };
  kustomize: string;
  kubeScore: string;
  kubernetesValidate: string;
  hadolint: string;
  actionlint: string;
  composeGo: string;
  jaeger: string;
  victoriaMetrics: string;
}

export interface ToolPaths {
  toolsDir: string;
  mongoClasspath: string;
  natsServer: string;
  chromium: string;
  deck: string;
  /** The checkers of k8s/ and tools/src/ship (installed with `--browser`, as npm test does). */
  checkers: Record<CheckerName, string>;
  /** The trace viewer (Jaeger v2 all-in-one) and the metrics store the stack runs beside the shop. */
  jaeger: string;
  victoriaMetrics: string;
}

export type CheckerName =
  'kustomize' | 'kubeScore' | 'kubernetesValidate' | 'hadolint' | 'actionlint' | 'composeConfig';

const debianNatsServer = '/usr/bin/nats-server';

let cachedRoot: string | undefined;

/** The monorepo root: the nearest folder above this library (or the working directory) holding `nx.json`. */
export function repoRoot(): string {
  if (cachedRoot) return cachedRoot;
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = start; ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'nx.json'))) return (cachedRoot = dir);
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error(
    `cannot find the repository root (a folder with nx.json) above ${__dirname} or ${process.cwd()}`,
  );
}

/** Reads `tools/infra/versions.json`, the single place the tool versions are pinned. */
export function toolVersions(): ToolVersions {
  return JSON.parse(
    readFileSync(join(repoRoot(), 'tools', 'infra', 'versions.json'), 'utf8'),
  ) as ToolVersions;
}

/**
 * Where `tools/infra/ensure-tools.mjs` installs each tool; mirrors its `toolPaths()` so the two
 * projects share a folder layout without importing each other.
 */
export function toolPaths(): ToolPaths {
  const versions = toolVersions();
  const toolsDir = process.env['SHOP_TOOLS_DIR'] || join(homedir(), '.cache', 'shop-tools');
  const mongoDir = join(toolsDir, `mongo-java-server-${versions.mongoJavaServer}`);
  const ownNats = join(toolsDir, `nats-server-${versions.natsServer}`, 'nats-server');
  return {
    toolsDir,
    mongoClasspath: `${join(mongoDir, 'classes')}${delimiter}${join(mongoDir, 'lib', '*')}`,
    natsServer: !existsSync(ownNats) && existsSync(debianNatsServer) ? debianNatsServer : ownNats,
    chromium: '/usr/bin/chromium',
    deck: '/usr/bin/deck',
    checkers: {
      kustomize: join(toolsDir, `kustomize-${versions.kustomize}`, 'kustomize'),
      kubeScore: join(toolsDir, `kube-score-${versions.kubeScore}`, 'kube-score'),
      kubernetesValidate: join(
        toolsDir,
        `kubernetes-validate-${versions.kubernetesValidate}`,
        'kubernetes-validate',
      ),
      hadolint: join(toolsDir, `hadolint-${versions.hadolint}`, 'bin', 'hadolint'),
      actionlint: join(toolsDir, `actionlint-${versions.actionlint}`, 'actionlint'),
      // go install names compose-go's checker after its folder, cmd.
      composeConfig: join(toolsDir, `compose-go-${versions.composeGo}`, 'cmd'),
    },
    jaeger: join(toolsDir, `jaeger-${versions.jaeger}`, 'jaeger'),
    victoriaMetrics: join(toolsDir, `victoria-metrics-${versions.victoriaMetrics}`, 'victoria-metrics'),
  };
}

/** The path of a checker; a missing one fails the test with what to run (it never skips). */
export function checkerPath(name: CheckerName): string {
  const path = toolPaths().checkers[name];
  if (!existsSync(path)) {
    throw new Error(
      `${path} is missing. Run \`node tools/infra/ensure-tools.mjs --browser\` (npm test does).`,
    );
  }
  return path;
}

const installed = new Set<string>();

/**
 * Runs the installer once per process, so an edited launcher is rebuilt before it is used; when
 * everything is present this costs one short Node start. The embedded servers alone by default; with
 * `observability`, Jaeger and VictoriaMetrics too (their first build takes minutes, so only the stack
 * that runs them asks for them).
 */
export function ensureToolsInstalled(options: { observability?: boolean } = {}): void {
  const what = options.observability ? 'observability' : 'servers';
  if (installed.has(what)) return;
  const script = join(repoRoot(), 'tools', 'infra', 'ensure-tools.mjs');
  const result = spawnSync(process.execPath, [script, '--quiet'], {
    encoding: 'utf8',
    env: { ...process.env, SHOP_OBSERVABILITY: options.observability ? '1' : '0' },
  });
  if (result.error || result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    throw new Error(
      `installing the embedded servers failed (node ${script}):\n${output || result.error?.message}`,
    );
  }
  if (result.stdout.trim()) process.stderr.write(result.stdout);
  installed.add(what);
}
