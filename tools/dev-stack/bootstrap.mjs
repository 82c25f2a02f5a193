#!/usr/bin/env node
// Entry point of `npm start` and `npm test` on a fresh clone: it runs on whatever Node the machine
// has, installs the npm packages (which bring Node 24), then hands over to Node 24 for the rest.
// Plain JavaScript on purpose: nothing is installed or built when it starts.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
// By path, not by package name: nothing is installed yet.
// eslint-disable-next-line @nx/enforce-module-boundaries
import paths from '../../libs/infra/src/paths.cjs';

const root = paths.repoRoot();
const command = process.argv[2];
const REQUIRED_NODE_MAJOR = 24;

function run(cmd, args, options = {}) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', ...options });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
}

function step(text) {
  console.log(`\n> ${text}`);
}

function ensureNpmPackages() {
  // Checked already by the run that handed over to Node 24 (ensureNode24).
  if (process.env.SHOP_NPM_PACKAGES_CHECKED === '1') return;
  const lock = join(root, 'package-lock.json');
  const stamp = join(root, 'node_modules', '.shop-install-stamp');
  const lockHash = () => createHash('sha256').update(readFileSync(lock)).digest('hex');
  if (existsSync(stamp) && readFileSync(stamp, 'utf8') === lockHash()) {
    step('npm packages: cached (package-lock.json unchanged since the last install)');
    return;
  }
  // `npm ci`, not `npm install`: it installs exactly what the lock records and never writes the lock,
  // so a fresh clone's `git status` stays clean and every machine gets the same packages; it also
  // fails when package.json and the lock disagree instead of quietly re-resolving. It needs every
  // platform's optional binaries (swc, rspack, ...) in the lock (npm/cli#4828): the lock keeps them
  // all, and tools/dev-stack/src/package-lock.spec.ts fails when an install drops some. It starts from an empty
  // node_modules, so it runs only when the lock has changed since the last install.
  step('Installing npm packages (npm ci, ~2 min)');
  run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error']);
  writeFileSync(stamp, lockHash());
}

function ensureNode24() {
  if (Number(process.versions.node.split('.')[0]) === REQUIRED_NODE_MAJOR) return;
  const node24 = join(root, 'node_modules', '.bin', 'node');
  if (!existsSync(node24)) throw new Error('node_modules/.bin/node is missing after npm install');
  const result = spawnSync(node24, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: {
      ...process.env,
      PATH: `${join(root, 'node_modules', '.bin')}:${process.env.PATH}`,
      SHOP_NPM_PACKAGES_CHECKED: '1',
    },
  });
  process.exit(result.status ?? 1);
}

const nx = (...args) => run(join(root, 'node_modules', '.bin', 'nx'), args);

async function main() {
  if (command !== 'start' && command !== 'test') {
    console.error('usage: node tools/dev-stack/bootstrap.mjs start|test');
    process.exit(2);
  }
  ensureNpmPackages();
  ensureNode24();
  // By path, like paths.cjs above: the installer runs before the workspaces are linked.
  // eslint-disable-next-line @nx/enforce-module-boundaries
  const { ensureTools, observabilityWanted } = await import('../../libs/infra/ensure-tools.mjs');
  const observability = observabilityWanted();
  const log = (line) => console.log(`  ${line}`);
  if (command === 'start') {
    // What the shop needs to start. Jaeger and VictoriaMetrics are built, the first time, in the
    // background while the shop runs (tools/dev-stack/src/stack/observability.ts); the tools only the
    // tests use are npm test's.
    step(
      'Checking the embedded database, NATS and the mail catcher' +
        (observability
          ? ' (Jaeger and VictoriaMetrics start with the shop, built in the background the first time)'
          : ' (SHOP_OBSERVABILITY=0: no Jaeger, no VictoriaMetrics)'),
    );
    await ensureTools({ log });
  } else {
    step(
      'Checking the embedded database, NATS, the mail catcher' +
        (observability ? ', Jaeger, VictoriaMetrics' : '') +
        ' and the test tools (oasdiff, Chromium, decK, Schemathesis, the manifest and pipeline checkers, a local Kubernetes control plane)',
    );
    await ensureTools({ tests: true, observability, log });
  }

  if (command === 'start') {
    step('Building (Nx: a part unchanged since its last build comes from its cache)');
    nx('run-many', '-t', 'build', '--output-style=stream-without-prefixes');
    step('Starting the shop');
    run(process.execPath, [join(root, 'tools', 'dev-stack', 'dist', 'start.js')]);
    return;
  }

  step('Format check');
  run(join(root, 'node_modules', '.bin', 'prettier'), ['--check', '--log-level=warn', '.']);
  step('Lint, typecheck, build, unit and integration tests');
  nx('run-many', '-t', 'lint', 'typecheck', 'build', 'test', '--output-style=stream');
  step('Browser tests (Playwright, Chromium)');
  nx('run', '@shop/e2e:e2e', '--output-style=stream');
  console.log('\nAll checks passed.');
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
