import { spawn, spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Page } from '@playwright/test';
import { type FrontEndName, REPO_ROOT } from '@shop/tools';

const require = createRequire(import.meta.url);

/** Scratch space inside the repository (ignored by git), so builds find its node_modules by walking up. */
const SCRATCH = join(REPO_ROOT, 'tmp');

/**
 * Runs the front-end's own webpack config in `projectDir`, as `npm run build` does; answers its dist. Not
 * synchronous: the test's gateway and static servers live in this process and must keep answering.
 */
async function webpackBuild(projectDir: string, what: string): Promise<string> {
  const child = spawn(
    process.execPath,
    [require.resolve('webpack-cli/bin/cli.js'), '--config', 'webpack.config.cjs'],
    {
      cwd: projectDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.once('error', reject);
    child.once('close', resolve);
  });
  if (code !== 0) throw new Error(`${what}: build failed\n${output}`);
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
  // The config loads the shared factory from ../tools, as in the repository.
  symlinkSync(join(REPO_ROOT, 'tools'), join(root, 'tools'));
  const packageFile = join(project, 'package.json');
  const packageJson = JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string };
  writeFileSync(packageFile, JSON.stringify({ ...packageJson, version }, null, 2));
  const homePage = join(project, 'src', 'features', 'home', 'home-page.tsx');
  writeFileSync(homePage, change(readFileSync(homePage, 'utf8')));
  const dist = await webpackBuild(project, `catalog ${version}`);
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

/** The files of `paths` at `commit`, written under `into`; the working tree and index stay as they are. */
function extract(commit: string, paths: string[], into: string): void {
  const archive = spawnSync('git', ['archive', '--format=tar', commit, ...paths], {
    cwd: REPO_ROOT,
    maxBuffer: 512 * 1024 * 1024,
  });
  if (archive.status !== 0) throw new Error(`git archive ${commit} failed: ${String(archive.stderr)}`);
  const untar = spawnSync('tar', ['-x', '-C', into], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`Extracting ${commit} failed: ${String(untar.stderr)}`);
}

/**
 * The real previous release of a front-end: its sources at the commit releases.json names, taken out of
 * git history with `git archive` (the working tree and index are never touched) and built with the
 * installed node_modules, except that `@shop/*` resolves to that commit's own libraries. Built once per
 * commit and kept under tmp/previous-releases/ (ignored by git), so later runs only serve it.
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
  if (existsSync(builtMarker)) return { dist, commit: fullCommit };

  if (!existsSync(join(root, 'package.json'))) {
    const extracting = `${root}.partial`;
    rmSync(extracting, { recursive: true, force: true });
    mkdirSync(extracting, { recursive: true });
    // Everything a front-end build reads: the front-end, the libraries, the shared webpack factory.
    extract(fullCommit, ['package.json', 'tsconfig.base.json', 'libs', 'tools', app], extracting);
    linkWorkspaceLibraries(extracting);
    rmSync(root, { recursive: true, force: true });
    renameSync(extracting, root);
  } else if (!existsSync(join(root, app))) {
    extract(fullCommit, [app], root);
  }
  linkNestedModules(root, app);
  await webpackBuild(join(root, app), `${app} at ${fullCommit}`);
  writeFileSync(builtMarker, `${new Date().toISOString()}\n`);
  return { dist, commit: fullCommit };
}

/**
 * `@shop/<lib>` of the extracted commit must be that commit's library, not today's: the repository's
 * node_modules/@shop links to the working tree, so the extracted tree gets its own, found first.
 */
function linkWorkspaceLibraries(root: string): void {
  const scope = join(root, 'node_modules', '@shop');
  mkdirSync(scope, { recursive: true });
  for (const folder of readdirSync(join(root, 'libs'))) {
    const packageFile = join(root, 'libs', folder, 'package.json');
    if (!existsSync(packageFile)) continue;
    const { name } = JSON.parse(readFileSync(packageFile, 'utf8')) as { name: string };
    symlinkSync(join('..', '..', 'libs', folder), join(root, 'node_modules', name));
  }
}

/** A workspace's own node_modules (versions that differ from the root's) are not in git: borrow today's. */
function linkNestedModules(root: string, app: string): void {
  const folders = [app, 'tools', ...readdirSync(join(root, 'libs')).map((lib) => join('libs', lib))];
  for (const folder of folders) {
    const installed = join(REPO_ROOT, folder, 'node_modules');
    const link = join(root, folder, 'node_modules');
    if (existsSync(installed) && existsSync(join(root, folder)) && !existsSync(link)) {
      symlinkSync(installed, link);
    }
  }
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
