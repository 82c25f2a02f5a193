// The primitives every installer step runs on: running a command, finding one, failing, moving a
// finished staging folder into place, apt-get.
import { spawnSync } from 'node:child_process';
import { existsSync, renameSync } from 'node:fs';
import { delimiter, join } from 'node:path';

export function run(label, command, args, env = {}) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) fail(`${label}: cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0)
    fail(`${label}: ${command} ${args.join(' ')} failed (exit ${result.status}):\n${tail(result)}`);
}

export function tail(result, lines = 30) {
  return `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-lines).join('\n');
}

export function which(command) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, command))) return join(dir, command);
  }
  return undefined;
}

export function fail(message) {
  throw new Error(message);
}

/** Moves a finished staging folder to `dir`; `readyFile` already there means a concurrent run got there first. */
export function moveIntoPlace(staging, dir, readyFile) {
  try {
    renameSync(staging, dir);
  } catch (error) {
    if (!existsSync(readyFile)) throw error;
  }
}

export function aptInstall(packages, log) {
  if (!which('apt-get')) fail(`apt-get is not available; install ${packages.join(', ')} by hand`);
  const asRoot = process.getuid?.() === 0;
  if (!asRoot && !which('sudo')) fail(`installing ${packages.join(', ')} needs root (or sudo)`);
  const apt = (args) => {
    const [command, fullArgs] = asRoot ? ['apt-get', args] : ['sudo', ['-n', 'apt-get', ...args]];
    return spawnSync(command, fullArgs, {
      encoding: 'utf8',
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    });
  };
  let result = apt(['install', '-y', ...packages]);
  if (result.status !== 0) {
    // An unknown package or a stale index: refresh the package lists once and retry.
    log('apt-get install failed; running apt-get update and retrying');
    const update = apt(['update']);
    if (update.status !== 0) fail(`apt-get update failed:\n${tail(update)}`);
    result = apt(['install', '-y', ...packages]);
  }
  if (result.status !== 0) fail(`apt-get install -y ${packages.join(' ')} failed:\n${tail(result)}`);
}
