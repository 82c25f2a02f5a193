// The deployables of the shop (each service and each front-end) and where each one's image comes from.
// A deployable is a workspace whose package.json declares the Nx target `image`; its version is the
// `version` of that package.json, its image `registry.example.com/shop/<name>:<version>`.
//
// Plain ESM without npm dependencies on purpose: the image job of CI runs it before (and without)
// `npm install`.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
// By path, not by package name: this runs before `npm install` has linked the workspaces.
// eslint-disable-next-line @nx/enforce-module-boundaries
import paths from '../../libs/infra/src/paths.cjs';

export const REGISTRY = 'registry.example.com/shop';
export const repoRoot = paths.repoRoot();

/**
 * @typedef {object} Workspace
 * @property {string} project the package name, which is also the Nx project name (`@shop/products`)
 * @property {string} root the folder, relative to the repository root (`services/products`)
 * @property {string} version
 * @property {Record<string, string>} dependencies runtime and development dependencies together
 * @property {Record<string, unknown>} nx the package.json `nx` section
 */

/**
 * @typedef {object} Deployable
 * @property {string} project `@shop/products`
 * @property {string} name `products`: the image's name, the compose service and the k8s unit
 * @property {string} root `services/products`
 * @property {'service' | 'frontend'} kind
 * @property {string} version
 * @property {string} image `registry.example.com/shop/products:0.1.0`
 * @property {string} dockerfile relative to the repository root
 * @property {Record<string, string>} buildArgs what the Dockerfile needs to build this deployable
 */

/** @returns {Workspace[]} every npm workspace of the repository (root package.json `workspaces`). */
export function listWorkspaces(root = repoRoot) {
  const rootPackage = readJson(join(root, 'package.json'));
  /** @type {string[]} */
  const folders = [];
  for (const pattern of rootPackage.workspaces ?? []) {
    // The repository uses only `dir` and `dir/*` patterns.
    if (pattern.endsWith('/*')) {
      const parent = pattern.slice(0, -2);
      for (const entry of readdirSync(join(root, parent), { withFileTypes: true })) {
        if (entry.isDirectory()) folders.push(`${parent}/${entry.name}`);
      }
    } else {
      folders.push(pattern);
    }
  }
  return folders
    .filter((folder) => existsSync(join(root, folder, 'package.json')))
    .sort()
    .map((folder) => {
      const pkg = readJson(join(root, folder, 'package.json'));
      return {
        project: pkg.name,
        root: folder,
        version: pkg.version,
        dependencies: { ...pkg.dependencies, ...pkg.devDependencies },
        nx: pkg.nx ?? {},
      };
    });
}

/** @returns {Deployable[]} the workspaces that declare the Nx target `image`, by name. */
export function listDeployables(root = repoRoot) {
  return listWorkspaces(root)
    .filter((workspace) => workspace.nx.targets && 'image' in workspace.nx.targets)
    .map((workspace) => toDeployable(workspace))
    .sort((a, b) => a.name.localeCompare(b.name));
}

/**
 * Finds a deployable by project name, short name or folder (`@shop/products`, `products`,
 * `services/products`), so the Nx target can pass `{projectRoot}` and a person can type the name.
 * @returns {Deployable}
 */
export function findDeployable(nameOrRoot, root = repoRoot) {
  const deployables = listDeployables(root);
  const wanted = relative(root, resolve(root, nameOrRoot)) || nameOrRoot;
  const found = deployables.find(
    (d) => d.project === nameOrRoot || d.name === nameOrRoot || d.root === wanted,
  );
  if (!found) {
    const names = deployables.map((d) => d.name).join(', ');
    throw new Error(`'${nameOrRoot}' is not a deployable; the deployables are: ${names}`);
  }
  return found;
}

/** @param {Workspace} workspace @returns {Deployable} */
function toDeployable(workspace) {
  const name = workspace.project.replace(/^@shop\//, '');
  const folder = workspace.root.split('/').pop() ?? workspace.root;
  const kind = workspace.root.startsWith('services/') ? 'service' : 'frontend';
  return {
    project: workspace.project,
    name,
    root: workspace.root,
    kind,
    version: workspace.version,
    image: `${REGISTRY}/${name}:${workspace.version}`,
    dockerfile: kind === 'service' ? 'docker/service.Dockerfile' : 'docker/frontend.Dockerfile',
    buildArgs:
      kind === 'service'
        ? { SERVICE: folder, VERSION: workspace.version }
        : { APP: folder, VERSION: workspace.version },
  };
}

/**
 * The workspaces a project depends on through package.json, directly or not (`@shop/*` only).
 * @param {string} project
 * @param {Workspace[]} workspaces
 * @returns {string[]} project names, sorted
 */
export function workspaceDependencies(project, workspaces) {
  const byName = new Map(workspaces.map((workspace) => [workspace.project, workspace]));
  const seen = new Set();
  const visit = (name) => {
    for (const dependency of Object.keys(byName.get(name)?.dependencies ?? {})) {
      if (byName.has(dependency) && !seen.has(dependency)) {
        seen.add(dependency);
        visit(dependency);
      }
    }
  };
  visit(project);
  seen.delete(project);
  return [...seen].sort();
}

function readJson(path) {
  return JSON.parse(readFileSync(path, 'utf8'));
}
