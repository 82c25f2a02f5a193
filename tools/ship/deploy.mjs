#!/usr/bin/env node
// Deploys a deployable to one environment as its team's pipeline does, and waits for it to roll out: the
// command .github/workflows/deployable.yml runs, docs/deploy.md shows, and k8s's cluster suite runs
// against a real API server.
//
//   node tools/ship/deploy.mjs <project | name | folder> <dev | prod> [--tag <version> | --built] [--timeout <duration>]
//
// A project or folder names every image of that workspace, as image.mjs does (mf-catalog and its render
// service mf-catalog-render); each image is a unit of k8s/overlays/<env>/<name>, deployed with
//
//   kustomize build k8s/overlays/<env>/<name> \
//     | kubectl apply --server-side --field-manager=team-<name> --force-conflicts -f -
//   kubectl -n shop rollout status deployment/<name> --timeout=<duration>
//
// all applied before any is awaited. Server-side, under the unit's own field manager: the team owns its
// unit's fields and no other's (k8s/README.md, "Deploy"); --force-conflicts takes them over from whoever
// applied the whole environment first.
//
//   --tag      the unit's own image at this version instead of the one its overlay names
//   --built    the unit's own image at the version this commit builds (its package.json's): what the
//              dev pipeline has just pushed; prod deploys what its overlay names
//   --timeout  how long each rollout may take (default 10m)
//
// kubectl acts as whoever KUBECONFIG names: in a pipeline, its team's deploy identity
// (k8s/deploy-identities), which the API server lets change that team's objects alone. kubectl and
// kustomize come from PATH, or from KUBECTL and KUSTOMIZE.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { parseAllDocuments } from 'yaml';
import { findImages, repoRoot } from './deployables.mjs';

export const ENVIRONMENTS = ['dev', 'prod'];
const NAMESPACE = 'shop';

/** The repository part of an image reference (`registry.example.com/shop/orders:0.1.0` → without the tag). */
const repositoryOf = (image) => image.replace(/(@sha256:[0-9a-f]+|:[^:/]+)$/, '');

/**
 * The commands that deploy one unit: its render, the apply, the wait.
 * @param {string} name the unit (an image's name)
 * @param {string} environment
 * @param {{ timeout?: string }} [options]
 */
export function deployCommands(name, environment, { timeout = '10m' } = {}) {
  return {
    render: ['build', join('k8s', 'overlays', environment, name)],
    apply: ['apply', '--server-side', `--field-manager=team-${name}`, '--force-conflicts', '-f', '-'],
    rollout: ['-n', NAMESPACE, 'rollout', 'status', `deployment/${name}`, `--timeout=${timeout}`],
  };
}

/** The objects of a render, the unit's own image at `tag` when one is given. */
export function releaseOf(renderedYaml, image, tag) {
  const objects = parseAllDocuments(renderedYaml).map((document) => document.toJS());
  if (tag === undefined) return objects;
  const repository = repositoryOf(image);
  let changed = 0;
  for (const object of objects) {
    const pod = object.spec?.template?.spec;
    for (const container of [...(pod?.initContainers ?? []), ...(pod?.containers ?? [])]) {
      if (repositoryOf(container.image) !== repository) continue;
      container.image = `${repository}:${tag}`;
      changed += 1;
    }
  }
  if (changed === 0) throw new Error(`no container of the render runs ${repository}`);
  return objects;
}

function run(command, args, input) {
  const result = spawnSync(command, args, {
    cwd: repoRoot,
    input,
    encoding: 'utf8',
    stdio: [input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    maxBuffer: 64 * 1024 * 1024,
  });
  if (result.error) throw new Error(`${command}: ${result.error.message}`);
  if (result.status !== 0) {
    throw new Error(`${command} ${args.join(' ')} failed:\n${(result.stderr || result.stdout).trim()}`);
  }
  return result.stdout;
}

/**
 * Applies every unit of `target` in `environment`, then waits for each rollout; throws with what
 * kubectl said on the first refusal or a rollout that does not complete.
 */
export function deploy(target, environment, { tag, built = false, timeout, log = console.log } = {}) {
  if (!ENVIRONMENTS.includes(environment)) {
    throw new Error(`unknown environment '${environment}': one of ${ENVIRONMENTS.join(', ')}`);
  }
  const kubectl = process.env.KUBECTL || 'kubectl';
  const kustomize = process.env.KUSTOMIZE || 'kustomize';
  const units = findImages(target).map((deployable) => ({
    deployable,
    commands: deployCommands(deployable.name, environment, { timeout }),
  }));
  for (const { deployable, commands } of units) {
    const version = built ? deployable.image.slice(repositoryOf(deployable.image).length + 1) : tag;
    const objects = releaseOf(run(kustomize, commands.render), deployable.image, version);
    log(`${deployable.name}: applying ${objects.length} objects to ${environment}`);
    const list = JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects });
    process.stdout.write(run(kubectl, commands.apply, list));
  }
  for (const { commands } of units) process.stdout.write(run(kubectl, commands.rollout));
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: { tag: { type: 'string' }, built: { type: 'boolean' }, timeout: { type: 'string' } },
  });
  if (positionals.length !== 2 || (values.tag !== undefined && values.built)) {
    console.error(
      'usage: node tools/ship/deploy.mjs <project | name | folder> <dev | prod> [--tag <version> | --built] [--timeout <duration>]',
    );
    process.exit(2);
  }
  try {
    deploy(positionals[0], positionals[1], values);
  } catch (error) {
    console.error(error.message);
    process.exit(1);
  }
}
