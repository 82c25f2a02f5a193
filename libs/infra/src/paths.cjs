// The one description of where things are on this machine: the repository root, the pinned tool
// versions (libs/infra/versions.json) and where libs/infra/ensure-tools.mjs installs each tool.
// Plain CommonJS without dependencies on purpose: the installer imports it before `npm install` has
// finished (on the system Node too), @shop/infra's TypeScript imports it, and tools/ship reads it
// unbuilt. docs/decisions/0014-local-infrastructure.md says what lives where.
'use strict';
const { existsSync, readFileSync } = require('node:fs');
const { homedir } = require('node:os');
const { delimiter, dirname, join } = require('node:path');

let cachedRoot;

/** The monorepo root: the nearest folder above this file (or the working directory) holding `nx.json`. */
function repoRoot() {
  if (cachedRoot) return cachedRoot;
  for (const start of [__dirname, process.cwd()]) {
    for (let dir = start; ; dir = dirname(dir)) {
      if (existsSync(join(dir, 'nx.json'))) return (cachedRoot = dir);
      if (dirname(dir) === dir) break;
    }
  }
  throw new Error(
    `cannot find the repository root (a folder with nx.json) above ${__dirname} or ${process.cwd()}`,
  );
}

/** The versions pinned in `libs/infra/versions.json`, the single place they are kept. */
function toolVersions() {
  return JSON.parse(readFileSync(join(__dirname, '..', 'versions.json'), 'utf8'));
}

const debianNatsServer = '/usr/bin/nats-server';

/** Where each tool lives (or will live once installed), under `${SHOP_TOOLS_DIR:-~/.cache/shop-tools}`. */
function toolPaths(versions = toolVersions()) {
  const toolsDir = process.env.SHOP_TOOLS_DIR || join(homedir(), '.cache', 'shop-tools');
  const mongoDir = join(toolsDir, `mongo-java-server-${versions.mongoJavaServer}`);
  const ownNats = join(toolsDir, `nats-server-${versions.natsServer}`, 'nats-server');
  return {
    toolsDir,
    mongoDir,
    mongoClasspath: `${join(mongoDir, 'classes')}${delimiter}${join(mongoDir, 'lib', '*')}`,
    ownNatsServer: ownNats,
    // The Debian package is only the fallback for machines without Go.
    natsServer: !existsSync(ownNats) && existsSync(debianNatsServer) ? debianNatsServer : ownNats,
    debianNatsServer,
    chromium: '/usr/bin/chromium',
    deck: '/usr/bin/deck',
    nginx: '/usr/sbin/nginx',
    checkers: {
      // What k8s/test checks the manifests with: a plain `kustomize build`, the Kubernetes schemas, kube-score,
      kustomize: join(toolsDir, `kustomize-${versions.kustomize}`, 'kustomize'),
      kubeScore: join(toolsDir, `kube-score-${versions.kubeScore}`, 'kube-score'),
      // The shop's own rules for the manifests, as OPA policies (k8s/policy).
      conftest: join(toolsDir, `conftest-${versions.conftest}`, 'conftest'),
      kubernetesValidate: join(
        toolsDir,
        `kubernetes-validate-${versions.kubernetesValidate}`,
        'kubernetes-validate',
      ),
      // What tools/ship checks the images, pipelines and compose.yaml with.
      hadolint: join(toolsDir, `hadolint-${versions.hadolint}`, 'bin', 'hadolint'),
      actionlint: join(toolsDir, `actionlint-${versions.actionlint}`, 'actionlint'),
      // compose-go's own checker (go install names the binary after its folder, cmd).
      composeConfig: join(toolsDir, `compose-go-${versions.composeGo}`, 'cmd'),
    },
    // The control plane k8s/test applies the manifests to (k8s/test/cluster): Kubernetes built from its
    // Go module, etcd, kwok's fake nodes, and the CRDs the manifests and the Rollouts use.
    controlPlane: {
      kubeApiserver: join(toolsDir, `kubernetes-${versions.kubernetes}`, 'kube-apiserver'),
      kubeControllerManager: join(toolsDir, `kubernetes-${versions.kubernetes}`, 'kube-controller-manager'),
      kubeScheduler: join(toolsDir, `kubernetes-${versions.kubernetes}`, 'kube-scheduler'),
      kubectl: join(toolsDir, `kubernetes-${versions.kubernetes}`, 'kubectl'),
      etcd: join(toolsDir, `etcd-${versions.etcd}`, 'etcd'),
      kwok: join(toolsDir, `kwok-${versions.kwok}`, 'kwok'),
      prometheusOperatorCrds: join(toolsDir, `prometheus-operator-crds-${versions.prometheusOperator}`),
      argoRolloutsCrds: join(toolsDir, `argo-rollouts-crds-${versions.argoRollouts}`),
    },
    // The trace viewer and the metrics store `npm start` and the browser tests run beside the shop.
    jaeger: join(toolsDir, `jaeger-${versions.jaeger}`, 'jaeger'),
    victoriaMetrics: join(toolsDir, `victoria-metrics-${versions.victoriaMetrics}`, 'victoria-metrics'),
    // The shipped alert rules evaluated against VictoriaMetrics (same module and version).
    vmalert: join(toolsDir, `vmalert-${versions.victoriaMetrics}`, 'vmalert'),
    // The mail catcher `npm start` and the browser tests give the users service as its SMTP server.
    mailpit: join(toolsDir, `mailpit-${versions.mailpit}`, 'mailpit'),
    // What tools/contracts/gate compares a service's OpenAPI document with its previous release's by.
    oasdiff: join(toolsDir, `oasdiff-${versions.oasdiff}`, 'oasdiff'),
    // What the browser tests fuzz every service's API with, through the gateway.
    // -sp: the site-packages layout (libs/infra/ensure-tools.mjs); a cache holding the earlier lib/
    // layout under the plain name is passed over, not reused.
    schemathesis: join(toolsDir, `schemathesis-${versions.schemathesis}-sp`, 'schemathesis'),
  };
}

/** Whether Jaeger and VictoriaMetrics are wanted: yes unless SHOP_OBSERVABILITY is 0 (or false, off, no). */
function observabilityWanted(env = process.env) {
  return !['0', 'false', 'off', 'no'].includes((env.SHOP_OBSERVABILITY ?? '').trim().toLowerCase());
}

exports.repoRoot = repoRoot;
exports.toolVersions = toolVersions;
exports.toolPaths = toolPaths;
exports.observabilityWanted = observabilityWanted;
