// Building a tool from its Go module, installing one from PyPI: into a staging folder beside the target,
// moved into place at the end, so a concurrent run never sees half an install. Each build says what it
// does and roughly how long it takes ("building ..., ~2 min on 2 cores"), and how long it took.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { fail, moveIntoPlace, run, tail, which } from './system.mjs';

const fallbackGo = '/usr/local/go/bin/go';

export function findGo() {
  return which('go') ?? (existsSync(fallbackGo) ? fallbackGo : undefined);
}

/** 65 s → "1 min 5 s". */
export function duration(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/**
 * Says `label: building <how>, <estimate>` and answers what to call once it is done, which says
 * `label: ready in <time>`.
 */
export function building(label, how, estimate, log) {
  log(`${label}: building ${how}${estimate ? `, ${estimate}` : ''}`);
  const started = Date.now();
  return () => log(`${label}: ready in ${duration(Date.now() - started)}`);
}

/**
 * A fresh staging folder beside `dir`, named after this process. Staging folders of runs that are gone
 * (a build stopped by a signal or a crash) are removed first; a live run's is left to it.
 */
export function stagingFor(dir) {
  const prefix = `${basename(dir)}.tmp-`;
  for (const entry of existsSync(dirname(dir)) ? readdirSync(dirname(dir)) : []) {
    const pid = Number(entry.slice(prefix.length));
    if (entry.startsWith(prefix) && Number.isInteger(pid) && !alive(pid)) {
      rmSync(join(dirname(dir), entry), { recursive: true, force: true });
    }
  }
  const staging = `${dir}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  return staging;
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Builds a Go program into a staging folder, then moves it into place, so a half-built tool never counts. */
export function goInstall(label, go, moduleAtVersion, binary, log, estimate) {
  const dir = dirname(binary);
  const done = building(label, `with go install into ${dir}`, estimate, log);
  const staging = stagingFor(dir);
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
  done();
}

/**
 * Builds `program` (a package of `module`) as a tool of a module of our own: `go get -tool`, then
 * `go build`. For modules whose replace directives `go install module@version` refuses (they do not
 * apply to a dependency); the same program. go.mod and go.sum stay beside the binary: they say exactly
 * what it was built from.
 */
export function goBuildAsTool(label, go, programAtVersion, binary, log, estimate) {
  const dir = dirname(binary);
  const done = building(label, `with go get -tool and go build into ${dir}`, estimate, log);
  const staging = stagingFor(dir);
  mkdirSync(staging, { recursive: true });
  const goEnv = { PATH: `${dirname(go)}${delimiter}${process.env.PATH ?? ''}` };
  const inStaging = (args) => run(label, go, ['-C', staging, ...args], goEnv);
  try {
    inStaging(['mod', 'init', `shop.local/${basename(binary)}-build`]);
    inStaging(['get', '-tool', programAtVersion]);
    inStaging(['build', '-o', basename(binary), programAtVersion.split('@')[0]]);
    moveIntoPlace(staging, dir, binary);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  done();
}

/** Downloads a Go module into Go's module cache; answers `go mod download -json` (its `Dir`, its `GoMod`). */
function goModule(label, go, moduleAtVersion) {
  const found = spawnSync(go, ['mod', 'download', '-json', moduleAtVersion], {
    encoding: 'utf8',
    env: { ...process.env, PATH: `${dirname(go)}${delimiter}${process.env.PATH ?? ''}` },
  });
  if (found.status !== 0) fail(`${label}: cannot download ${moduleAtVersion}:\n${tail(found)}`);
  return JSON.parse(found.stdout);
}

/** Downloads a Go module and answers the folder holding its files. */
export function goModuleDir(label, go, moduleAtVersion) {
  return goModule(label, go, moduleAtVersion).Dir;
}

/**
 * The modules `k8s.io/kubernetes@v<version>` keeps in its own `./staging` folder (k8s.io/api, client-go,
 * ...), read from its go.mod: each is published on its own as v0.<minor>.<patch>.
 */
export function kubernetesStagingModules(goModText) {
  return [...goModText.matchAll(/^\s*(k8s\.io\/\S+)\s+=>\s+\.\/staging\/src\/\S+$/gm)].map(
    (match) => match[1],
  );
}

/**
 * Builds `programs` of Kubernetes (`kube-apiserver`, `kubectl`, ...: packages under k8s.io/kubernetes/cmd)
 * into `dir`. The main module k8s.io/kubernetes points its staging modules at folders of its own, which
 * `go install` refuses; so a module of our own replaces each with its published version, gets the
 * programs, and builds them with the version string a release build carries. go.mod and go.sum stay in
 * `dir`: they say exactly what the binaries were built from.
 */
export function goBuildKubernetes(label, go, version, programs, dir, log, estimate) {
  const done = building(label, `${programs.join(', ')} with go build into ${dir}`, estimate, log);
  const staging = stagingFor(dir);
  mkdirSync(staging, { recursive: true });
  const goEnv = { PATH: `${dirname(go)}${delimiter}${process.env.PATH ?? ''}` };
  // Niced: the builds keep both cores busy for many minutes, and the machine stays usable meanwhile.
  const inStaging = (args) => run(label, 'nice', ['-n', '10', go, '-C', staging, ...args], goEnv);
  try {
    const { GoMod } = goModule(label, go, `k8s.io/kubernetes@v${version}`);
    const staged = kubernetesStagingModules(readFileSync(GoMod, 'utf8'));
    if (staged.length === 0) fail(`${label}: k8s.io/kubernetes@v${version} names no staging modules`);
    const [major, minor, patch] = version.split('.');
    inStaging(['mod', 'init', 'shop.local/kubernetes-build']);
    inStaging([
      'mod',
      'edit',
      ...staged.map((module) => `-replace=${module}=${module}@v0.${minor}.${patch}`),
    ]);
    inStaging(['get', ...programs.map((program) => `k8s.io/kubernetes/cmd/${program}@v${version}`)]);
    const stamp = 'k8s.io/component-base/version';
    const ldflags = [
      '-s -w',
      `-X ${stamp}.gitVersion=v${version}`,
      `-X ${stamp}.gitMajor=${major}`,
      `-X ${stamp}.gitMinor=${minor}`,
      `-X ${stamp}.gitTreeState=clean`,
    ].join(' ');
    for (const program of programs) {
      inStaging([
        'build',
        '-trimpath',
        '-ldflags',
        ldflags,
        '-o',
        program,
        `k8s.io/kubernetes/cmd/${program}`,
      ]);
    }
    moveIntoPlace(staging, dir, join(dir, programs.at(-1)));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  done();
}

/**
 * Builds each [label, module@version, binary, estimate?, build?] whose binary is missing, one after the other
 * (one Go build at a time: each already keeps both cores busy); `cached(label)` for each one present. `build`
 * is goInstall unless given (goBuildAsTool for a module whose replace directives `go install` refuses).
 */
export function ensureGoTools(goTools, neededBy, { log, cached }) {
  for (const [label, moduleAtVersion, binary, estimate, build = goInstall] of goTools) {
    if (existsSync(binary)) {
      cached(label);
      continue;
    }
    const go = findGo();
    if (!go) fail(`${label}: Go is not installed; ${neededBy} need it to build ${basename(binary)}`);
    build(label, go, moduleAtVersion, binary, log, estimate);
  }
}

/**
 * pip installs `requirement` into `dir` (its `libDir` inside it, when given), unless `readyFile` exists.
 * Not a venv, which cannot be moved into place once built: --target into a staging folder beside `dir`,
 * moved in at the end, so a concurrent run never sees half an install.
 */
export function pipInstall(
  label,
  requirement,
  readyFile,
  dir,
  { log, cached },
  { libDir, finish, estimate } = {},
) {
  if (existsSync(readyFile)) return cached(label);
  const found = ['python3', 'python'].find((name) => which(name));
  if (!found) fail(`${label}: Python 3 is not on PATH (pip installs it)`);
  const interpreter = spawnSync(found, ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' });
  if (interpreter.status !== 0) fail(`${label}: ${found} does not run:\n${tail(interpreter)}`);
  const python = interpreter.stdout.trim();
  const done = building(label, `with pip into ${dir}`, estimate, log);
  const staging = stagingFor(dir);
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
  done();
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
