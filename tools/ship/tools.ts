// Where the checkers of this folder live: installed by libs/infra/ensure-tools.mjs (npm test runs it).
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';

import { repoRoot } from './deployables.mjs';
import { checkerPath } from '@shop/infra';

/** The path of a checker installed by libs/infra/ensure-tools.mjs; a missing one fails the test. */
export const tool = checkerPath;

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
