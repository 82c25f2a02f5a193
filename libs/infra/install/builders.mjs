// Building a tool from its Go module, installing one from PyPI: into a staging folder beside the target,
// moved into place at the end, so a concurrent run never sees half an install.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { fail, moveIntoPlace, run, tail, which } from './system.mjs';

const fallbackGo = '/usr/local/go/bin/go';

export function findGo() {
  return which('go') ?? (existsSync(fallbackGo) ? fallbackGo : undefined);
}

/** Builds a Go program into a staging folder, then moves it into place, so a half-built tool never counts. */
export function goInstall(label, go, moduleAtVersion, binary, log) {
  const dir = dirname(binary);
  log(`${label}: building with ${go} (go install) into ${dir}`);
  const staging = `${dir}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  try {
    run(label, go, ['install', moduleAtVersion], {
      GOBIN: staging,
      PATH: `${dirname(go)}${delimiter}${process.env.PATH ?? ''}`,
    });
    mkdirSync(dir, { recursive: true });
    renameSync(join(staging, basename(binary)), binary);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`${label}: ready`);
}

/** Builds each [label, module@version, binary] whose binary is missing. */
export function ensureGoTools(goTools, neededBy, log) {
  for (const [label, moduleAtVersion, binary] of goTools) {
    if (existsSync(binary)) continue;
    const go = findGo();
    if (!go)
      fail(`${label}: Go is not installed; the ${neededBy} tests need it to build ${basename(binary)}`);
    goInstall(label, go, moduleAtVersion, binary, log);
  }
}

/**
 * pip installs `requirement` into `dir` (its `libDir` inside it, when given), unless `readyFile` exists.
 * Not a venv, which cannot be moved into place once built: --target into a staging folder beside `dir`,
 * moved in at the end, so a concurrent run never sees half an install.
 */
export function pipInstall(label, requirement, readyFile, dir, log, { libDir, finish } = {}) {
  if (existsSync(readyFile)) return;
  const found = ['python3', 'python'].find((name) => which(name));
  if (!found) fail(`${label}: Python 3 is not on PATH (pip installs it)`);
  const interpreter = spawnSync(found, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  if (interpreter.status !== 0) fail(`${label}: ${found} does not run:\n${tail(interpreter)}`);
  const python = interpreter.stdout.trim();
  const staging = `${dir}.tmp-${process.pid}`;
  log(`${label}: installing with pip into ${dir}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    run(label, python, [
      '-m',
      'pip',
      'install',
      '--quiet',
      '--disable-pip-version-check',
      '--no-warn-script-location',
      '--target',
      libDir ? join(staging, libDir) : staging,
      requirement,
    ]);
    finish?.(staging, python);
    moveIntoPlace(staging, dir, readyFile);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`${label}: ready`);
}

/** A script that runs `module`'s `main` from the `libDir` folder beside it (./lib) with `python`. */
export function pythonLauncher(python, module, main, libDir = 'lib') {
  return [
    `#!${python}`,
    'import os, sys',
    `sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), '${libDir}'))`,
    `from ${module} import ${main}`,
    `sys.exit(${main}())`,
    '',
  ].join('\n');
}
