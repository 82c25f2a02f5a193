// The deployables of the shop (each service and each front-end, and a front-end's server rendering) and
// where each one's image comes from. A deployable is a workspace whose package.json declares the Nx target
// `image`; its version is the `version` of that package.json, its image
// `registry.example.com/shop/<name>:<version>`.
//
// A front-end may declare more images in that target, built beside its own from the same commit and at
// the same version (docs/rendering.md: the catalog's render service, the shell's page server):
//
//   "nx": { "targets": { "image": { "options": { "extraImages": [
//     { "name": "mf-catalog-render", "kind": "render", "dockerfile": "docker/render.Dockerfile",
//       "buildArgs": { "APP": "mf-catalog" } }
//   ] } } } }
//
// Each is a deployable of its own (its image name is its compose service and k8s unit), of the same
// project, folder and version; VERSION is added to its build args, never declared. `nx run <project>:image`
// and `image.mjs <project | folder>` build all of a workspace's images; Nx forwards no object or array
// option to the command, so the declaration stays data for this file.
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
 * @property {'service' | 'frontend' | 'render'} kind `render`: an extra image of a front-end, its server
 *   rendering, built beside the front-end's own image
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

/**
 * @returns {Deployable[]} the images of the workspaces that declare the Nx target `image` (each one's own
 * and its extra images), by name.
 */
export function listDeployables(root = repoRoot) {
  const deployables = listWorkspaces(root)
    .filter((workspace) => workspace.nx.targets && 'image' in workspace.nx.targets)
    .flatMap((workspace) => toDeployables(workspace, root))
    .sort((a, b) => a.name.localeCompare(b.name));
  for (const [index, deployable] of deployables.entries()) {
    const before = deployables[index - 1];
    if (before?.name === deployable.name)
      throw new Error(
        `${before.project} and ${deployable.project} both build the image '${deployable.name}'`,
      );
  }
  return deployables;
}

/**
 * The images that one command builds: a workspace's project name or folder (`@shop/mf-catalog`,
 * `mf-catalog`, `services/products`; the Nx target passes `{projectRoot}`) names all of its images, its own
 * first; an image's name (`products`, `mf-catalog-render`) names that image alone.
 * @returns {Deployable[]}
 */
export function findImages(nameOrRoot, root = repoRoot) {
  const deployables = listDeployables(root);
  const wanted = relative(root, resolve(root, nameOrRoot)) || nameOrRoot;
  const ofWorkspace = deployables
    .filter((d) => d.project === nameOrRoot || d.root === wanted)
    .sort((a, b) => Number(a.kind === 'render') - Number(b.kind === 'render'));
  if (ofWorkspace.length > 0) return ofWorkspace;
  const named = deployables.filter((d) => d.name === nameOrRoot);
  if (named.length > 0) return named;
  const names = deployables.map((d) => d.name).join(', ');
  throw new Error(`'${nameOrRoot}' is not a deployable; the deployables are: ${names}`);
}

/**
 * Finds a deployable by project name, short name or folder (`@shop/products`, `products`,
 * `services/products`), so the Nx target can pass `{projectRoot}` and a person can type the name. A
 * front-end's project or folder is its own image, never one of its extra images (`mf-catalog-render`).
 * @returns {Deployable}
 */
export function findDeployable(nameOrRoot, root = repoRoot) {
  const [found] = findImages(nameOrRoot, root);
  return /** @type {Deployable} */ (found);
}

/** @param {Workspace} workspace @param {string} root @returns {Deployable[]} */
function toDeployables(workspace, root) {
  const name = workspace.project.replace(/^@shop\//, '');
  const folder = workspace.root.split('/').pop() ?? workspace.root;
  const kind = workspace.root.startsWith('services/') ? 'service' : 'frontend';
  /** @type {Deployable} */
  const own = {
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
  const extras = extraImagesOf(workspace);
  if (extras.length > 0 && kind !== 'frontend')
    throw new Error(`${workspace.root}/package.json: only a front-end declares extraImages`);
  return [
    own,
    ...extras.map((extra) => {
      const where = `${workspace.root}/package.json extraImages '${extra.name}'`;
      if (!existsSync(join(root, extra.dockerfile)))
        throw new Error(`${where}: ${extra.dockerfile} does not exist`);
      return {
        project: workspace.project,
        name: extra.name,
        root: workspace.root,
        kind: extra.kind,
        version: workspace.version,
        image: `${REGISTRY}/${extra.name}:${workspace.version}`,
        dockerfile: extra.dockerfile,
        buildArgs: { ...extra.buildArgs, VERSION: workspace.version },
      };
    }),
  ];
}

/**
 * The workspace's `nx.targets.image.options.extraImages`, checked.
 * @param {Workspace} workspace
 * @returns {{ name: string, kind: 'render', dockerfile: string, buildArgs: Record<string, string> }[]}
 */
function extraImagesOf(workspace) {
  const target = /** @type {{ options?: { extraImages?: unknown } } | undefined} */ (
    /** @type {Record<string, unknown>} */ (workspace.nx.targets)?.image
  );
  const declared = target?.options?.extraImages;
  if (declared === undefined) return [];
  const where = `${workspace.root}/package.json nx.targets.image.options.extraImages`;
  if (!Array.isArray(declared)) throw new Error(`${where}: a list of images`);
  return declared.map((entry) => {
    const { name, kind, dockerfile, buildArgs = {}, ...rest } = entry ?? {};
    const what = `${where} '${name}'`;
    if (typeof name !== 'string' || !/^[a-z0-9]+(-[a-z0-9]+)*$/.test(name))
      throw new Error(
        `${where}: each needs a name in lower-case words joined by '-', not ${JSON.stringify(name)}`,
      );
    if (kind !== 'render') throw new Error(`${what}: kind is 'render' (a server-rendering image)`);
    if (typeof dockerfile !== 'string' || !/^docker\/[\w.-]+\.Dockerfile$/.test(dockerfile))
      throw new Error(`${what}: dockerfile is docker/<name>.Dockerfile`);
    if (
      typeof buildArgs !== 'object' ||
      buildArgs === null ||
      Object.values(buildArgs).some((value) => typeof value !== 'string')
    )
      throw new Error(`${what}: buildArgs maps names to strings`);
    if ('VERSION' in buildArgs)
      throw new Error(`${what}: VERSION is the workspace's version, added to every image: do not declare it`);
    if (Object.keys(rest).length > 0)
      throw new Error(`${what}: unknown ${Object.keys(rest).join(', ')} (name, kind, dockerfile, buildArgs)`);
    return { name, kind, dockerfile, buildArgs };
  });
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
