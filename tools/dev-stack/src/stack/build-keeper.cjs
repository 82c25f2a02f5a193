// The keeper of the stack's background build (stack/observability.ts, BackgroundBuild): started as the
// leader of a process group of its own, it runs the build (the command on its command line) in that
// group, so stopping the group stops the Go compiler under the installer too. It also stops the group
// when the stack's process is gone, however it ended (Ctrl-C while the shop was still starting, a
// crash): the stack holds the other end of this process's stdin, which closes then.
// Plain CommonJS that node runs as it is (tsc only copies it into dist/).
'use strict';
const { spawn } = require('node:child_process');
const { constants } = require('node:os');

const [command, ...args] = process.argv.slice(2);
const build = spawn(command, args, { stdio: ['ignore', 'inherit', 'inherit'] });

const stopGroup = () => {
  try {
    process.kill(-process.pid, 'SIGTERM');
  } catch {
    // Nothing left to stop.
  }
};
// The group's SIGTERM reaches this process too: it waits for the build to end and says how it ended.
process.on('SIGTERM', () => undefined);
process.stdin.on('end', stopGroup);
process.stdin.on('error', stopGroup);
process.stdin.resume();

build.once('error', (error) => {
  console.error(`cannot run ${command}: ${error.message}`);
  process.exit(127);
});
build.once('exit', (code, signal) => process.exit(signal ? 128 + (constants.signals[signal] ?? 0) : code));
