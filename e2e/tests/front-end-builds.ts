import { spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import type { Product } from '@shop/contracts';
import { type FrontEndName, REPO_ROOT } from '@shop/dev-stack';
import { SEEDED_ADMIN, signInThroughApi } from './fixtures';
import { createListing } from './support/listings';

const require = createRequire(import.meta.url);

/** Scratch space inside the repository (ignored by git), so builds find its node_modules by walking up. */
const SCRATCH = join(REPO_ROOT, 'tmp');

/**
 * Runs a command in `cwd` and fails with its output when it fails. Not synchronous: the test's gateway and
 * static servers live in this process and must keep answering.
 */
async function run(command: string, args: string[], cwd: string, what: string): Promise<void> {
  const child = spawn(command, args, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`${what} failed\n${output}`);
}

/** Runs the front-end's own webpack config in `projectDir` with this webpack-cli, as `npm run build` does. */
async function webpackBuild(projectDir: string, webpackCli: string, what: string): Promise<string> {
  await run(process.execPath, [webpackCli, '--config', 'webpack.config.cjs'], projectDir, `${what}: build`);
  return join(projectDir, 'dist');
}

/** A built catalog remote of its own version, and the scratch folder to delete when done. */
export interface CatalogVariant {
  dist: string;
  version: string;
  remove(): void;
}

/**
 * Builds a changed copy of the catalog remote, as its team would ship a new release: same webpack config,
 * same shared libraries, its own version, one change in its source.
 */
export async function buildCatalogVariant(
  version: string,
  change: (homePage: string) => string,
): Promise<CatalogVariant> {
  mkdirSync(SCRATCH, { recursive: true });
  const root = mkdtempSync(join(SCRATCH, 'catalog-release-'));
  const project = join(root, 'mf-catalog');
  for (const entry of ['src', 'package.json', 'webpack.config.cjs']) {
    cpSync(join(REPO_ROOT, 'mf-catalog', entry), join(project, entry), { recursive: true });
  }
  // The config enters the build preset by package name (@shop/webpack-preset): found by walking up to the
  // repository's node_modules, as in the repository.
  const packageFile = join(project, 'package.json');
  const packageJson = JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string };
  writeFileSync(packageFile, JSON.stringify({ ...packageJson, version }, null, 2));
  const homePage = join(project, 'src', 'features', 'home', 'home-page.tsx');
  writeFileSync(homePage, change(readFileSync(homePage, 'utf8')));
  const dist = await webpackBuild(project, require.resolve('webpack-cli/bin/cli.js'), `catalog ${version}`);
  return { dist, version, remove: () => rmSync(root, { recursive: true, force: true }) };
}

/** releases.json: the commit each front-end's release before this one was built from. */
function previousReleaseCommit(app: FrontEndName): string {
  const releases = JSON.parse(readFileSync(join(REPO_ROOT, 'releases.json'), 'utf8')) as {
    previous?: Partial<Record<FrontEndName, { commit?: string }>>;
  };
  const commit = releases.previous?.[app]?.commit;
  if (!commit || !/^[0-9a-f]{7,40}$/.test(commit)) {
    throw new Error(`releases.json names no previous release commit for ${app}`);
  }
  return commit;
}

const git = (args: string[]) => spawnSync('git', args, { cwd: REPO_ROOT, encoding: 'utf8' });

/** The whole tree at `commit`, written under `into`; the working tree and index stay as they are. */
function extract(commit: string, into: string): void {
  const archive = spawnSync('git', ['archive', '--format=tar', commit], {
    cwd: REPO_ROOT,
    maxBuffer: 512 * 1024 * 1024,
  });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${String(archive.stderr)}`);
  const untar = spawnSync('tar', ['-x', '-C', into], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`Extracting ${commit} failed: ${String(untar.stderr)}`);
}

/**
 * The front-ends, and the workspace of their shared webpack factory, whose plugins are its dependencies:
 * `tools` in releases made before it became its own package, tools/webpack-preset since.
 */
function buildWorkspaces(root: string): string[] {
  const preset = existsSync(join(root, 'tools', 'webpack-preset', 'package.json'))
    ? 'tools/webpack-preset'
    : 'tools';
  return ['shell', 'mf-catalog', 'mf-checkout', 'mf-admin', preset];
}

/**
 * Every package of the lockfile that the install put on disk, at a version other than the lock's, as
 * "location: installed, locked" (a build "from its own lockfile" that quietly took other versions is not one).
 */
function packagesOffTheLock(root: string): string[] {
  const lock = JSON.parse(readFileSync(join(root, 'package-lock.json'), 'utf8')) as {
    packages: Record<string, { version?: string; link?: boolean }>;
  };
  const off: string[] = [];
  let checked = 0;
  for (const [location, entry] of Object.entries(lock.packages)) {
    if (!location.includes('node_modules/') || entry.link || !entry.version) continue;
    const packageFile = join(root, location, 'package.json');
    if (!existsSync(packageFile)) continue;
    checked += 1;
    const { version } = JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string };
    if (version !== entry.version) off.push(`${location}: ${version}, locked ${entry.version}`);
  }
  if (checked === 0) off.push('nothing of the lock is installed');
  return off;
}

const installs = new Map<string, Promise<void>>();

/**
 * The tree of `commit` with the dependencies of its front-ends installed from that commit's own
 * package-lock.json, in `root`; done once per commit and shared by the front-ends released from it.
 * `npm install` with the lock present rather than `npm ci`: the lock holds only the platform binaries the
 * registry served when it was written, and `npm ci` refuses such a lock (npm/cli#4828; tools/dev-stack/bootstrap.mjs
 * says the same). The installed versions are then checked against the lock.
 */
function installRelease(commit: string, root: string): Promise<void> {
  let install = installs.get(root);
  if (!install) {
    install = (async () => {
      const installed = join(root, '.installed-from-its-lock');
      if (existsSync(installed)) return;
      // A folder without the marker is a partial install, or a build of an older layout (made against
      // today's node_modules): start again.
      rmSync(root, { recursive: true, force: true });
      mkdirSync(root, { recursive: true });
      extract(commit, root);
      const workspaces = buildWorkspaces(root).flatMap((workspace) => ['--workspace', workspace]);
      const flags = ['--ignore-scripts', '--no-audit', '--no-fund', '--no-save', '--prefer-offline'];
      await run('npm', ['install', ...flags, ...workspaces], root, `npm install from ${commit}'s lockfile`);
      const off = packagesOffTheLock(root);
      if (off.length > 0)
        throw new Error(`${commit}: installed versions differ from its lock:\n${off.join('\n')}`);
      writeFileSync(installed, `${new Date().toISOString()}\n`);
    })();
    installs.set(root, install);
    install.catch(() => installs.delete(root));
  }
  return install;
}

/**
 * The real previous release of a front-end: the tree at the commit releases.json names, taken out of git
 * history with `git archive` (the working tree and index are never touched), its dependencies installed from
 * that commit's own lockfile, built there with its own webpack and config. Kept per commit under
 * tmp/previous-releases/<commit>/ (ignored by git), so later runs only serve it.
 */
export async function previousReleaseBuild(app: FrontEndName): Promise<{ dist: string; commit: string }> {
  const commit = previousReleaseCommit(app);
  const known = git(['rev-parse', '--verify', '--quiet', `${commit}^{commit}`]);
  if (known.status !== 0) {
    throw new Error(
      `The previous release of ${app} (commit ${commit}, from releases.json) is not in this clone's ` +
        'history. A shallow clone lacks it: run `git fetch --unshallow` (or clone with full history) ' +
        'and test again.',
    );
  }
  const fullCommit = known.stdout.trim();
  const root = join(SCRATCH, 'previous-releases', fullCommit);
  const dist = join(root, app, 'dist');
  const builtMarker = join(root, `${app}.built`);
  await installRelease(fullCommit, root);
  if (existsSync(builtMarker)) return { dist, commit: fullCommit };
  const webpackCli = join(root, 'node_modules', 'webpack-cli', 'bin', 'cli.js');
  await webpackBuild(join(root, app), webpackCli, `${app} at ${fullCommit}`);
  writeFileSync(builtMarker, `${new Date().toISOString()}\n`);
  return { dist, commit: fullCommit };
}

/**
 * A product the admin creates now, just before a shopper opens it right after a deploy (a swap of remotes,
 * a previous release put back): not one of the seeded products, which the page may already know.
 */
export async function productCreatedNow(baseURL: string, madeBy: string): Promise<Product> {
  const admin = await signInThroughApi(baseURL, SEEDED_ADMIN.email, SEEDED_ADMIN.password);
  return createListing(baseURL, admin.token, {
    name: `${madeBy} Pistol ${Date.now().toString(36)}`,
    brand: 'Acme',
    category: 'Pistols',
    description: `Made by the ${madeBy.toLowerCase()} test just before a shopper opens it.`,
    price: 110,
  });
}

/**
 * Every front-end file (the shell's, a remote's, remotes.json: anything but /api/) the page could not get:
 * an answer of 400 or more, or a request that failed, as "status url". A navigation cancelling the requests
 * of the page it leaves (net::ERR_ABORTED) is not a failure.
 */
export function frontEndFailuresOf(page: Page): string[] {
  const failures: string[] = [];
  const isFrontEnd = (url: string) => !new URL(url).pathname.startsWith('/api/');
  page.on('response', (response) => {
    if (response.status() >= 400 && isFrontEnd(response.url()))
      failures.push(`${response.status()} ${response.url()}`);
  });
  page.on('requestfailed', (request) => {
    const reason = request.failure()?.errorText ?? 'failed';
    if (!reason.includes('ERR_ABORTED') && isFrontEnd(request.url()))
      failures.push(`${reason} ${request.url()}`);
  });
  return failures;
}
