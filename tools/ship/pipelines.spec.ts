// One domain, one release: Nx names only the deployables a change touches, and each deployable has a
// GitHub Actions workflow that runs when its folder or something it is built or tested with changes. A
// front-end's extra images (its server rendering) ship in its own workflow, from the same run.
import { execFile } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { listDeployables, listWorkspaces, repoRoot, workspaceDependencies } from './deployables.mjs';
import { output, run, tool } from './tools.js';

const execFileAsync = promisify(execFile);
const deployables = listDeployables();
/** Each workspace's own image: one per Nx image target, one workflow each. */
const projects = deployables.filter((d) => d.kind !== 'render');
const workspaces = listWorkspaces();
const byProject = new Map(workspaces.map((workspace) => [workspace.project, workspace]));
const nx = join(repoRoot, 'node_modules', '.bin', 'nx');
const scratch = mkdtempSync(join(tmpdir(), 'ship-pipelines-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * What `nx affected -t image` would build if only that file changed, for each file. Each answer is a
 * separate nx process (about 3 s on this machine), so a few run at once.
 */
async function affectedImages(files: string[]): Promise<Map<string, string[]>> {
  const answers = new Map<string, string[]>();
  const queue = [...files];
  const worker = async () => {
    for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
      const { stdout } = await execFileAsync(
        nx,
        ['show', 'projects', '--affected', `--files=${file}`, '--with-target', 'image'],
        { cwd: repoRoot, env: { ...process.env, NX_DAEMON: 'false', NX_TUI: 'false' } },
      );
      answers.set(file, stdout.split('\n').filter(Boolean).sort());
    }
  };
  await Promise.all([worker(), worker(), worker()]);
  return answers;
}

/** The projects a deployable's tests start for real (test target dependsOn { projects }). */
/** The team label a unit sets on its objects (k8s/base/<unit>/kustomization.yaml). */
function teamLabelOf(unit: string): string | undefined {
  const kustomization = parse(
    readFileSync(join(repoRoot, 'k8s', 'base', unit, 'kustomization.yaml'), 'utf8'),
  );
  const labels = (kustomization.labels ?? []) as { pairs: Record<string, string> }[];
  return labels.find((entry) => 'shop.example.com/team' in entry.pairs)?.pairs['shop.example.com/team'];
}

function testedWith(project: string): string[] {
  const dependsOn = (
    byProject.get(project)?.nx.targets as Record<string, { dependsOn?: unknown[] }> | undefined
  )?.test?.dependsOn;
  return (dependsOn ?? []).flatMap((entry) =>
    typeof entry === 'object' && entry !== null && 'projects' in entry ? (entry.projects as string[]) : [],
  );
}

describe('nx affected -t image', () => {
  const libraries = workspaces.filter((workspace) => workspace.root.startsWith('libs/'));
  const fileIn = (root: string) => `${root}/package.json`;
  let affected = new Map<string, string[]>();
  beforeAll(async () => {
    affected = await affectedImages([
      ...new Set([...projects, ...libraries].map((part) => fileIn(part.root))),
    ]);
  }, 180_000);

  // An extra image is its front-end's: the project Nx names builds it (image.mjs <folder>).
  it.each(deployables.map((d) => [d.name, d] as const))(
    'a change inside %s names that deployable alone',
    (_name, deployable) => {
      expect(affected.get(fileIn(deployable.root))).toEqual([deployable.project]);
    },
  );

  it.each(libraries.map((lib) => [lib.project, lib] as const))(
    'a change in %s names every deployable built on it, and only those',
    (_name, lib) => {
      const dependents = projects
        .filter((d) => workspaceDependencies(d.project, workspaces).includes(lib.project))
        .map((d) => d.project)
        .sort();
      expect(dependents.length).toBeGreaterThan(0);
      expect(affected.get(fileIn(lib.root))).toEqual(dependents);
    },
  );
});

describe('the GitHub Actions workflows', () => {
  const folder = join(repoRoot, '.github', 'workflows');
  const files = readdirSync(folder).filter((name) => name.endsWith('.yml'));

  it('pass actionlint', () => {
    const result = run(tool('actionlint'), ['-no-color']);
    expect(output(result), output(result)).toBe('');
    expect(result.status).toBe(0);
  });

  it('actionlint does fail a broken workflow (the check can fail)', () => {
    const repo = join(scratch, 'repo');
    mkdirSync(join(repo, '.github', 'workflows'), { recursive: true });
    writeFileSync(
      join(repo, '.github', 'workflows', 'bad.yml'),
      'on: push\njobs:\n  a:\n    runs-on: ubuntu-24.04\n    steps:\n      - run: echo ${{ inputs.nope }}\n',
    );
    const result = run(
      tool('actionlint'),
      ['-no-color', join(repo, '.github', 'workflows', 'bad.yml')],
      repo,
    );
    expect(result.status).not.toBe(0);
    expect(output(result)).toMatch(/inputs/);
  });

  it("are one per deployable, plus the workflow they all call; a front-end's extra images ship in its own", () => {
    expect(files.sort()).toEqual([...projects.map((d) => `${d.name}.yml`), 'deployable.yml'].sort());
    expect(deployables.filter((d) => d.kind === 'render').map((d) => [d.name, d.project])).toEqual([
      ['mf-catalog-render', '@shop/mf-catalog'],
      ['shell-pages', '@shop/shell'],
    ]);
  });

  it.each(projects.map((d) => [d.name, d] as const))(
    '%s.yml checks and ships its project, on the paths it is built and tested from',
    (name, deployable) => {
      const workflow = parse(readFileSync(join(folder, `${name}.yml`), 'utf8'));
      expect(workflow.jobs.ship.uses).toBe('./.github/workflows/deployable.yml');
      expect(workflow.jobs.ship.with.project).toBe(deployable.project);
      // The team whose deploy identity applies it: the team label of its unit (k8s/base/<name>).
      expect(workflow.jobs.ship.with.team).toBe(teamLabelOf(name));
      expect(workflow.on.push.branches).toEqual(['main']);
      const paths: string[] = workflow.on.push.paths;
      expect(workflow.on.pull_request.paths).toEqual(paths);
      expect(
        paths.filter((path, index) => paths.indexOf(path) !== index),
        'paths listed twice',
      ).toEqual([]);

      const tested = testedWith(deployable.project);
      const needed = new Set([deployable.project, ...tested]);
      for (const project of [deployable.project, ...tested])
        for (const dependency of workspaceDependencies(project, workspaces)) needed.add(dependency);
      const expected = [...needed].map((project) => `${byProject.get(project)?.root}/**`);
      // The recipe (and build context) of every image the run builds: its own and its extra images'.
      for (const image of deployables.filter((d) => d.project === deployable.project))
        for (const file of [image.dockerfile, `${image.dockerfile}.dockerignore`])
          if (file === image.dockerfile || existsSync(join(repoRoot, file))) expected.push(file);
      expected.push('.github/workflows/deployable.yml', `.github/workflows/${name}.yml`);
      expected.push('package-lock.json', 'tools/ship/**');
      expect(paths).toEqual(expect.arrayContaining(expected));
      // No other deployable's folder: another domain's change must not run this pipeline, unless this
      // one's tests start it.
      for (const other of deployables)
        if (!needed.has(other.project)) expect(paths).not.toContain(`${other.root}/**`);
    },
  );

  it('deployable.yml runs lint, typecheck and tests of the project, then builds its image and pushes on main', () => {
    const workflow = parse(readFileSync(join(folder, 'deployable.yml'), 'utf8'));
    expect(Object.keys(workflow.on)).toEqual(['workflow_call']);
    const checks = JSON.stringify(workflow.jobs.check.steps);
    expect(checks).toContain('nx run-many -t lint typecheck test --projects=\\"$PROJECT\\"');
    const image = workflow.jobs.image;
    expect(image.needs).toBe('check');
    const runs = image.steps.map((step: { run?: string; if?: string }) => [step.run, step.if]);
    expect(runs).toContainEqual([
      'node tools/ship/image.mjs "$PROJECT" --push',
      "github.event_name == 'push' && github.ref == 'refs/heads/main'",
    ]);
    // Then dev gets that version, by the command docs/deploy.md shows and k8s's cluster suite runs.
    const deploy = workflow.jobs.deploy;
    expect(deploy.needs).toBe('image');
    expect(deploy.if).toBe("github.event_name == 'push' && github.ref == 'refs/heads/main'");
    expect(deploy.environment).toBe('dev-${{ inputs.team }}');
    expect(JSON.stringify(deploy.steps)).toContain('node tools/ship/deploy.mjs \\"$PROJECT\\" dev --built');
  });
});
