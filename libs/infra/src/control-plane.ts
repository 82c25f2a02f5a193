import { spawnSync } from 'node:child_process';
import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort } from './free-port.js';
import { toolPaths } from './paths.cjs';
import { type ManagedProcess, startProcess } from './process.js';
import { startOnScratchDir } from './scratch-dir.js';

/** What kubectl answered. */
export interface KubectlResult {
  status: number;
  stdout: string;
  stderr: string;
}

export interface KubectlOptions {
  /** Sent on its standard input (`-f -`). */
  input?: string;
  /** Another identity's kubeconfig (`kubeconfigFor`); the cluster admin's by default. */
  kubeconfig?: string;
  timeoutMs?: number;
}

/**
 * A Kubernetes control plane of its own on loopback ports: etcd and kube-apiserver (RBAC, Pod Security
 * admission, a token file for the cluster admin), with `controllers` the controller manager and the
 * scheduler, with `nodes` kwok managing that many fake nodes (pods on them run and turn ready without
 * containers). Everything lives in a scratch folder removed by `stop`.
 */
export interface ControlPlane {
  /** The API server, `https://127.0.0.1:<port>` (a certificate it signed itself). */
  server: string;
  /** The cluster admin's kubeconfig file (`system:masters`). */
  kubeconfig: string;
  /** A kubeconfig file for a bearer token (a ServiceAccount's), to act as that identity. */
  kubeconfigFor(name: string, token: string): string;
  /** Runs kubectl against this cluster; never throws on a refusal: read `status` and `stderr`. */
  kubectl(args: string[], options?: KubectlOptions): KubectlResult;
  /** kubectl that must succeed: answers its standard output, or throws with what it said. */
  kubectlOk(args: string[], options?: KubectlOptions): string;
  stop(): Promise<void>;
}

export interface ControlPlaneOptions {
  /** Also run the controller manager and the scheduler, so Deployments roll out. */
  controllers?: boolean;
  /** Fake nodes kwok runs pods on (requires `controllers`); none by default. */
  nodes?: number;
  /** How long each part may take to be ready (60 s). */
  timeoutMs?: number;
}

/** The annotation kwok manages nodes by (`--manage-nodes-with-annotation-selector`). */
const FAKE_NODE_ANNOTATION = 'kwok.x-k8s.io/node';

/** The local control plane's binaries; a missing one fails the test with what to run (it never skips). */
function controlPlaneBinaries() {
  const paths = toolPaths().controlPlane;
  for (const binary of [paths.kubeApiserver, paths.kubectl, paths.etcd, paths.kwok]) {
    if (!existsSync(binary)) {
      throw new Error(
        `${binary} is missing. Run \`node libs/infra/ensure-tools.mjs --control-plane\` (npm test does).`,
      );
    }
  }
  return paths;
}

/** A fake node as kwok runs them: room for the whole shop, in one zone. */
function fakeNode(index: number) {
  const name = `kwok-node-${index}`;
  const room = { cpu: '32', memory: '256Gi', pods: '110', 'ephemeral-storage': '200Gi' };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      name,
      annotations: { [FAKE_NODE_ANNOTATION]: 'fake', 'node.alpha.kubernetes.io/ttl': '0' },
      labels: {
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'topology.kubernetes.io/zone': `zone-${index % 3}`,
        type: 'kwok',
      },
    },
    status: { allocatable: room, capacity: room },
  };
}

/**
 * Volumes the claims of the StatefulSets (mongodb, nats) bind to: no storage provisioner runs here,
 * so they are there beforehand, of no storage class, as large as any claim of the manifests.
 */
function localVolume(index: number) {
  return {
    apiVersion: 'v1',
    kind: 'PersistentVolume',
    metadata: { name: `local-${index}` },
    spec: {
      capacity: { storage: '100Gi' },
      accessModes: ['ReadWriteOnce'],
      persistentVolumeReclaimPolicy: 'Delete',
      storageClassName: '',
      hostPath: { path: `/tmp/kwok-volume-${index}` },
    },
  };
}

function kubeconfigText(server: string, user: string, token: string): string {
  return JSON.stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'local', cluster: { server, 'insecure-skip-tls-verify': true } }],
    users: [{ name: user, user: { token } }],
    contexts: [{ name: user, context: { cluster: 'local', user, namespace: 'default' } }],
    'current-context': user,
  });
}

/** Starts a local control plane (see `ControlPlane`) and resolves once the API server is ready. */
export function startControlPlane(options: ControlPlaneOptions = {}): Promise<ControlPlane> {
  return startOnScratchDir('shop-kube-', (dir) => startIn(dir, options));
}

async function startIn(dir: string, options: ControlPlaneOptions): Promise<ControlPlane> {
  const binaries = controlPlaneBinaries();
  const timeoutMs = options.timeoutMs ?? 60_000;
  const started: ManagedProcess[] = [];
  const stop = async (): Promise<void> => {
    for (const part of started.splice(0).reverse()) await part.stop();
  };
  const logFile = (name: string) => join(dir, `${name}.log`);
  try {
    const [etcdPort, etcdPeerPort, apiPort, managerPort, schedulerPort] = await Promise.all(
      Array.from({ length: 5 }, () => freePort()),
    );
    const etcdUrl = `http://127.0.0.1:${etcdPort}`;
    started.push(
      await startProcess({
        name: 'etcd',
        command: binaries.etcd,
        args: [
          '--data-dir',
          join(dir, 'etcd'),
          '--listen-client-urls',
          etcdUrl,
          '--advertise-client-urls',
          etcdUrl,
          '--listen-peer-urls',
          `http://127.0.0.1:${etcdPeerPort}`,
          '--initial-advertise-peer-urls',
          `http://127.0.0.1:${etcdPeerPort}`,
          '--initial-cluster',
          `default=http://127.0.0.1:${etcdPeerPort}`,
          '--log-level',
          'warn',
        ],
        readyUrl: `${etcdUrl}/health`,
        timeoutMs,
        logFile: logFile('etcd'),
      }),
    );

    // The service accounts' token keys, and the cluster admin's token.
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const signingKey = join(dir, 'service-accounts.key');
    const verifyingKey = join(dir, 'service-accounts.pub');
    writeFileSync(signingKey, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
    writeFileSync(verifyingKey, publicKey.export({ type: 'spki', format: 'pem' }));
    const adminToken = randomBytes(24).toString('hex');
    const tokenFile = join(dir, 'tokens.csv');
    writeFileSync(tokenFile, `${adminToken},cluster-admin,cluster-admin,"system:masters"\n`, { mode: 0o600 });
    const certDir = join(dir, 'certs');
    mkdirSync(certDir);

    const server = `https://127.0.0.1:${apiPort}`;
    const kubeconfigs = join(dir, 'kubeconfigs');
    mkdirSync(kubeconfigs);
    const kubeconfigFor = (name: string, token: string): string => {
      const file = join(kubeconfigs, `${name}.json`);
      writeFileSync(file, kubeconfigText(server, name, token), { mode: 0o600 });
      return file;
    };
    const kubeconfig = kubeconfigFor('cluster-admin', adminToken);
    const kubectl = (args: string[], call: KubectlOptions = {}): KubectlResult => {
      const result = spawnSync(binaries.kubectl, ['--kubeconfig', call.kubeconfig ?? kubeconfig, ...args], {
        encoding: 'utf8',
        input: call.input,
        timeout: call.timeoutMs ?? 120_000,
        maxBuffer: 64 * 1024 * 1024,
      });
      if (result.error) throw result.error;
      return { status: result.status ?? 1, stdout: result.stdout, stderr: result.stderr };
    };
    const kubectlOk = (args: string[], call?: KubectlOptions): string => {
      const result = kubectl(args, call);
      if (result.status !== 0) {
        throw new Error(`kubectl ${args.join(' ')} failed (exit ${result.status}):\n${result.stderr}`);
      }
      return result.stdout;
    };

    started.push(
      await startProcess({
        name: 'kube-apiserver',
        command: binaries.kubeApiserver,
        args: [
          `--etcd-servers=${etcdUrl}`,
          '--bind-address=127.0.0.1',
          '--advertise-address=127.0.0.1',
          `--secure-port=${apiPort}`,
          `--cert-dir=${certDir}`,
          `--token-auth-file=${tokenFile}`,
          '--authorization-mode=RBAC',
          '--service-account-issuer=https://kubernetes.default.svc.cluster.local',
          `--service-account-key-file=${verifyingKey}`,
          `--service-account-signing-key-file=${signingKey}`,
          '--service-cluster-ip-range=10.96.0.0/16',
          // As a real cluster runs: what a namespace admits is Pod Security's to say, not a global switch.
          '--allow-privileged=true',
          '--profiling=false',
        ],
        // Ready once /readyz answers: etcd reached, the built-in objects and RBAC roles in place.
        readyWhen: (line) => (/Serving securely on/.test(line) ? true : undefined),
        timeoutMs,
        logFile: logFile('kube-apiserver'),
      }),
    );
    const readyBy = Date.now() + timeoutMs;
    while (kubectl(['get', '--raw=/readyz'], { timeoutMs: 5_000 }).status !== 0) {
      if (Date.now() > readyBy) throw new Error(`kube-apiserver: /readyz not ok within ${timeoutMs} ms`);
      await new Promise((wait) => setTimeout(wait, 250));
    }

    if (options.controllers) {
      // The controller manager and the scheduler: clients of the API server as the cluster admin, serving
      // their own health on a loopback port, alone (no leader election).
      const clientOfTheApiServer = (port: number | undefined) => [
        `--kubeconfig=${kubeconfig}`,
        `--authentication-kubeconfig=${kubeconfig}`,
        `--authorization-kubeconfig=${kubeconfig}`,
        '--bind-address=127.0.0.1',
        `--secure-port=${port}`,
        '--leader-elect=false',
      ];
      started.push(
        await startProcess({
          name: 'kube-controller-manager',
          command: binaries.kubeControllerManager,
          args: [
            ...clientOfTheApiServer(managerPort),
            `--service-account-private-key-file=${signingKey}`,
            `--root-ca-file=${join(certDir, 'apiserver.crt')}`,
            '--use-service-account-credentials=false',
            // No pod network here: node IP ranges and cloud routes have nothing to manage.
            '--controllers=*,-nodeipam,-cloud-node-lifecycle,-service-lb-controller,-node-route-controller',
            // The nodes are kwok's, one process of this machine: on a busy runner its heartbeats can come
            // later than the default 50 s, and the node lifecycle controller would then mark every node
            // unreachable and every pod on it unready, in the middle of a test of something else
            // (https://github.com/kubernetes-sigs/kwok/issues/272; and kwok may leave such pods unready:
            // https://github.com/kubernetes-sigs/kwok/issues/1464). No test here is about a node that stops answering.
            '--node-monitor-grace-period=10m',
          ],
          timeoutMs,
          logFile: logFile('kube-controller-manager'),
        }),
      );
      started.push(
        await startProcess({
          name: 'kube-scheduler',
          command: binaries.kubeScheduler,
          args: clientOfTheApiServer(schedulerPort),
          timeoutMs,
          logFile: logFile('kube-scheduler'),
        }),
      );
    }

    if (options.nodes) {
      started.push(
        await startProcess({
          name: 'kwok',
          command: binaries.kwok,
          args: [
            `--kubeconfig=${kubeconfig}`,
            '--manage-all-nodes=false',
            `--manage-nodes-with-annotation-selector=${FAKE_NODE_ANNOTATION}=fake`,
            '--cidr=10.0.0.1/24',
            '--node-ip=10.0.0.1',
          ],
          timeoutMs,
          logFile: logFile('kwok'),
        }),
      );
      const objects = [
        ...Array.from({ length: options.nodes }, (_, index) => fakeNode(index)),
        ...Array.from({ length: 8 }, (_, index) => localVolume(index)),
      ];
      kubectlOk(['apply', '-f', '-'], {
        input: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }),
      });
    }

    return { server, kubeconfig, kubeconfigFor, kubectl, kubectlOk, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}
