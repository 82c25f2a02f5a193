import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { type CheckerName, repoRoot, toolPaths } from './paths.cjs';

/** The path of a checker; a missing one fails the test with what to run (it never skips). */
export function checkerPath(name: CheckerName): string {
  const path = toolPaths().checkers[name];
  if (!existsSync(path)) {
    throw new Error(
      `${path} is missing. Run \`node libs/infra/ensure-tools.mjs --browser\` (npm test does).`,
    );
  }
  return path;
}

const installed = new Set<string>();

/**
 * Runs the installer once per process, so an edited launcher is rebuilt before it is used; when
 * everything is present this costs one short Node start. The embedded servers by default
 * (`ensure-tools.mjs --servers`); with `observability`, Jaeger and VictoriaMetrics instead (their first
 * build takes minutes, so only the stack that runs them asks for them).
 */
export function ensureToolsInstalled(options: { observability?: boolean } = {}): void {
  const what = options.observability ? 'observability' : 'servers';
  if (installed.has(what)) return;
  const script = join(repoRoot(), 'libs', 'infra', 'ensure-tools.mjs');
  const result = spawnSync(process.execPath, [script, `--${what}`, '--quiet'], { encoding: 'utf8' });
  if (result.error || result.status !== 0) {
    const output = `${result.stdout ?? ''}${result.stderr ?? ''}`.trim();
    const tools = options.observability ? 'trace viewer and metrics store' : 'embedded servers';
    throw new Error(
      `installing the ${tools} failed (node ${script} --${what}):\n${output || result.error?.message}`,
    );
  }
  if (result.stdout.trim()) process.stderr.write(result.stdout);
  installed.add(what);
}
