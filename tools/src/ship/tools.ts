// Where the checkers of this folder live: installed by tools/infra/ensure-tools.mjs (npm test runs it).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from './deployables.mjs';

/** The same paths as toolPaths() of tools/infra/ensure-tools.mjs, at the versions of versions.json. */
function toolPaths() {
  const versions = JSON.parse(readFileSync(join(repoRoot, 'tools', 'infra', 'versions.json'), 'utf8')) as {
    hadolint: string;
    actionlint: string;
    composeGo: string;
  };
  const toolsDir = process.env.SHOP_TOOLS_DIR || join(homedir(), '.cache', 'shop-tools');
  return {
    hadolint: join(toolsDir, `hadolint-${versions.hadolint}`, 'bin', 'hadolint'),
    actionlint: join(toolsDir, `actionlint-${versions.actionlint}`, 'actionlint'),
    composeConfig: join(toolsDir, `compose-go-${versions.composeGo}`, 'cmd'),
  };
}

/** The path of a checker; a missing one fails the test with what to run, never skips it. */
export function tool(name: keyof ReturnType<typeof toolPaths>): string {
  const path = toolPaths()[name];
  if (!existsSync(path))
    throw new Error(
      `${path} is missing. Run \`node tools/infra/ensure-tools.mjs --browser\` (npm test does).`,
    );
  return path;
}

/** Runs a command from the repository root (or `cwd`) and returns what it said. */
export function run(command: string, args: string[], cwd: string = repoRoot): SpawnSyncReturns<string> {
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (result.error) throw result.error;
  return result;
}

/** Both output streams, for an assertion message that shows what the tool said. */
export function output(result: SpawnSyncReturns<string>): string {
  return `${result.stdout}${result.stderr}`.trim();
}
