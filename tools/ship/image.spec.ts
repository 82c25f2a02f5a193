// The Nx target `image` of every deployable: which image it builds, from what, and that without a
// Docker engine it fails saying so instead of pretending.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findDeployable, findImages, listDeployables, repoRoot } from './deployables.mjs';
import { declaredBuildArgs, imageCommands, imagesToBuild, previousRelease } from './image.mjs';
import { output, run } from './tools.js';

const deployables = listDeployables();
const scratch = mkdtempSync(join(tmpdir(), 'ship-image-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the deployables', () => {
  it('are the six services, the four front-ends and the two server-rendering images, each of an Nx image target', () => {
    expect(deployables.map((d) => [d.name, d.kind, d.project])).toEqual([
      ['data', 'service', '@shop/data'],
      ['media', 'service', '@shop/media'],
      ['mf-admin', 'frontend', '@shop/mf-admin'],
      ['mf-catalog', 'frontend', '@shop/mf-catalog'],
      ['mf-catalog-render', 'render', '@shop/mf-catalog'],
      ['mf-checkout', 'frontend', '@shop/mf-checkout'],
      ['orders', 'service', '@shop/orders'],
      ['products', 'service', '@shop/products'],
      ['shell', 'frontend', '@shop/shell'],
      ['shell-pages', 'render', '@shop/shell'],
      ['users', 'service', '@shop/users'],
      ['wallet', 'service', '@shop/wallet'],
    ]);
  });

  it.each([
    ['mf-catalog-render', 'mf-catalog'],
    ['shell-pages', 'shell'],
  ])(
    "%s is built from docker/render.Dockerfile with APP=%s, at that front-end's version, from its folder",
    (name, app) => {
      const pkg = JSON.parse(readFileSync(join(repoRoot, app, 'package.json'), 'utf8'));
      expect(findDeployable(name)).toEqual({
        project: `@shop/${app}`,
        name,
        root: app,
        kind: 'render',
        version: pkg.version,
        image: `registry.example.com/shop/${name}:${pkg.version}`,
        dockerfile: 'docker/render.Dockerfile',
        buildArgs: { APP: app, VERSION: pkg.version },
      });
      expect(imageCommands(findDeployable(name)).build).toEqual([
        'docker',
        'build',
        '-f',
        'docker/render.Dockerfile',
        '--build-arg',
        `APP=${app}`,
        '--build-arg',
        `VERSION=${pkg.version}`,
        '-t',
        `registry.example.com/shop/${name}:${pkg.version}`,
        '.',
      ]);
    },
  );

  it.each(deployables.map((d) => [d.name, d] as const))(
    "%s's Dockerfile exists and takes each build arg it is given (VERSION where it records one)",
    (_name, deployable) => {
      const declared = declaredBuildArgs(join(repoRoot, deployable.dockerfile));
      for (const name of Object.keys(deployable.buildArgs))
        if (name !== 'VERSION') expect(declared, `${deployable.dockerfile} ARG ${name}`).toContain(name);
      if (declared.has('VERSION'))
        expect(imageCommands(deployable).build).toContain(`VERSION=${deployable.version}`);
    },
  );

  it.each(deployables.map((d) => [d.name, d] as const))(
    '%s is tagged registry.example.com/shop/<name>:<its package.json version>',
    (_name, deployable) => {
      const pkg = JSON.parse(readFileSync(join(repoRoot, deployable.root, 'package.json'), 'utf8'));
      const { build } = imageCommands(deployable);
      expect(build.slice(0, 4)).toEqual(['docker', 'build', '-f', deployable.dockerfile]);
      expect(build.slice(-3)).toEqual([
        '-t',
        `registry.example.com/shop/${deployable.name}:${pkg.version}`,
        '.',
      ]);
      const folder = deployable.root.split('/').pop();
      expect(build).toContain(deployable.kind === 'service' ? `SERVICE=${folder}` : `APP=${folder}`);
    },
  );

  it('are found by project name, short name or folder, and a wrong name lists the right ones', () => {
    expect(findDeployable('@shop/orders').root).toBe('services/orders');
    expect(findDeployable('services/orders').name).toBe('orders');
    expect(findDeployable('mf-admin').kind).toBe('frontend');
    expect(() => findDeployable('libs/contracts')).toThrow(/not a deployable.*products/);
  });

  it("a front-end's project or folder is its own image first, then its extra images; a name is that image alone", () => {
    const names = (target: string) => findImages(target).map((d) => d.name);
    expect(findDeployable('@shop/mf-catalog').name).toBe('mf-catalog');
    expect(findDeployable('mf-catalog').name).toBe('mf-catalog');
    expect(findDeployable('shell').name).toBe('shell');
    expect(names('@shop/mf-catalog')).toEqual(['mf-catalog', 'mf-catalog-render']);
    expect(names('mf-catalog')).toEqual(['mf-catalog', 'mf-catalog-render']);
    expect(names(join(repoRoot, 'shell'))).toEqual(['shell', 'shell-pages']);
    expect(names('mf-catalog-render')).toEqual(['mf-catalog-render']);
    expect(names('shell-pages')).toEqual(['shell-pages']);
    expect(names('products')).toEqual(['products']);
    expect(names('@shop/mf-admin')).toEqual(['mf-admin']);
  });
});

describe('extra images declared by a workspace (nx.targets.image.options.extraImages)', () => {
  /** A repository of one front-end and one service, the front-end declaring `extraImages`. */
  function repoWith(extraImages: unknown, where: 'front-end' | 'service' = 'front-end'): string {
    const root = mkdtempSync(join(scratch, 'repo-'));
    mkdirSync(join(root, 'docker'));
    writeFileSync(join(root, 'docker', 'render.Dockerfile'), 'FROM scratch\nARG APP\n');
    writeFileSync(join(root, 'package.json'), JSON.stringify({ workspaces: ['web', 'services/*'] }));
    const image = (declares: boolean) => (declares ? { options: { extraImages } } : {});
    for (const [folder, name, declares] of [
      ['web', '@shop/web', where === 'front-end'],
      ['services/api', '@shop/api', where === 'service'],
    ] as const) {
      mkdirSync(join(root, folder), { recursive: true });
      writeFileSync(
        join(root, folder, 'package.json'),
        JSON.stringify({ name, version: '1.2.3', nx: { targets: { image: image(declares) } } }),
      );
    }
    return root;
  }
  const render = {
    name: 'web-render',
    kind: 'render',
    dockerfile: 'docker/render.Dockerfile',
    buildArgs: { APP: 'web' },
  };

  it('lists each one at the workspace version, with VERSION added to its build args', () => {
    const root = repoWith([render]);
    expect(listDeployables(root).map((d) => [d.name, d.kind, d.image, d.buildArgs])).toEqual([
      ['api', 'service', 'registry.example.com/shop/api:1.2.3', { SERVICE: 'api', VERSION: '1.2.3' }],
      ['web', 'frontend', 'registry.example.com/shop/web:1.2.3', { APP: 'web', VERSION: '1.2.3' }],
      [
        'web-render',
        'render',
        'registry.example.com/shop/web-render:1.2.3',
        { APP: 'web', VERSION: '1.2.3' },
      ],
    ]);
    expect(findImages('web', root).map((d) => d.name)).toEqual(['web', 'web-render']);
  });

  it.each([
    ['a service', [render], 'service', /only a front-end declares extraImages/],
    ['not a list', render, 'front-end', /a list of images/],
    [
      'a name taken by another image',
      [{ ...render, name: 'api' }],
      'front-end',
      /both build the image 'api'/,
    ],
    ['a name that is no image name', [{ ...render, name: 'Web_Render' }], 'front-end', /lower-case words/],
    ['another kind', [{ ...render, kind: 'frontend' }], 'front-end', /kind is 'render'/],
    [
      'a Dockerfile that is not there',
      [{ ...render, dockerfile: 'docker/ssr.Dockerfile' }],
      'front-end',
      /does not exist/,
    ],
    [
      'a Dockerfile outside docker/',
      [{ ...render, dockerfile: 'Dockerfile' }],
      'front-end',
      /docker\/<name>\.Dockerfile/,
    ],
    [
      'its own VERSION',
      [{ ...render, buildArgs: { APP: 'web', VERSION: '9.9.9' } }],
      'front-end',
      /do not declare it/,
    ],
    [
      'a build arg that is not a string',
      [{ ...render, buildArgs: { APP: 1 } }],
      'front-end',
      /maps names to strings/,
    ],
    ['an unknown field', [{ ...render, tag: 'latest' }], 'front-end', /unknown tag/],
  ] as const)('refuses %s', (_what, extraImages, where, message) => {
    expect(() => listDeployables(repoWith(extraImages, where))).toThrow(message);
  });
});

describe('image.mjs', () => {
  const script = join(repoRoot, 'tools/ship/image.mjs');

  it('prints the build, the check of the built image and the push without needing Docker', () => {
    const result = run(process.execPath, [script, 'services/wallet', '--print', '--push']);
    expect(result.status, output(result)).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines[0]).toBe(
      'docker build -f docker/service.Dockerfile --build-arg SERVICE=wallet --build-arg VERSION=0.1.0 -t registry.example.com/shop/wallet:0.1.0 .'.replaceAll(
        '0.1.0',
        findDeployable('wallet').version,
      ),
    );
    expect(lines[1]).toContain('"10001:10001"');
    expect(lines[1]).toMatch(/npm npx corepack/);
    expect(lines[2]).toBe(`docker push ${findDeployable('wallet').image}`);
  });

  it("builds and checks a front-end's images, its own and its render image, before pushing either", () => {
    const catalog = findDeployable('mf-catalog');
    const render = findDeployable('mf-catalog-render');
    // `nx run @shop/mf-catalog:image` passes the folder; CI passes the project name.
    for (const target of ['mf-catalog', '@shop/mf-catalog']) {
      const result = run(process.execPath, [script, target, '--print', '--push', '--previous-image', 'x:1']);
      expect(result.status, output(result)).toBe(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines).toHaveLength(6);
      expect(lines[0]).toBe(
        `docker build -f docker/frontend.Dockerfile --build-arg APP=mf-catalog --build-arg PREVIOUS_IMAGE=x:1 -t ${catalog.image} .`,
      );
      expect(lines[1]).toMatch(new RegExp(`^docker run --rm --entrypoint /bin/sh ${catalog.image} `));
      expect(lines[2]).toBe(
        `docker build -f docker/render.Dockerfile --build-arg APP=mf-catalog --build-arg VERSION=${catalog.version} -t ${render.image} .`,
      );
      expect(lines[3]).toMatch(new RegExp(`^docker run --rm --entrypoint /bin/sh ${render.image} `));
      expect(lines.slice(4)).toEqual([`docker push ${catalog.image}`, `docker push ${render.image}`]);
    }
    expect(render.image).toBe(`registry.example.com/shop/mf-catalog-render:${catalog.version}`);
  });

  it('builds a render image alone by its name, and gives it no PREVIOUS_IMAGE', () => {
    const pages = findDeployable('shell-pages');
    const result = run(process.execPath, [script, 'shell-pages', '--print']);
    expect(result.status, output(result)).toBe(0);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(
      `docker build -f docker/render.Dockerfile --build-arg APP=shell --build-arg VERSION=${pages.version} -t ${pages.image} .`,
    );
    expect(() => imagesToBuild([pages], { previousImage: 'x:1' })).toThrow(/takes no PREVIOUS_IMAGE/);
  });

  it('fails and says so when Docker is not installed', () => {
    // A PATH holding only node: no docker to find.
    const nodeOnly = join(scratch, 'node-only');
    mkdirSync(nodeOnly, { recursive: true });
    symlinkSync(process.execPath, join(nodeOnly, 'node'));
    const result = run('/usr/bin/env', [`PATH=${nodeOnly}`, 'node', script, 'products']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/Docker is not installed .*no image was built/);
  });

  it('refuses a project that is not a deployable', () => {
    const result = run(process.execPath, [script, 'libs/contracts', '--print']);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/not a deployable/);
  });

  it('gives a front-end the previous release recorded in releases.json, never its own version', () => {
    const catalog = findDeployable('mf-catalog');
    const releases = join(scratch, 'releases.json');
    writeFileSync(
      releases,
      JSON.stringify({ previous: { 'mf-catalog': { version: '0.0.9', commit: 'abc' } } }),
    );
    expect(previousRelease(catalog, releases)).toBe('registry.example.com/shop/mf-catalog:0.0.9');
    writeFileSync(releases, JSON.stringify({ previous: { 'mf-catalog': { version: catalog.version } } }));
    expect(previousRelease(catalog, releases)).toBeUndefined();
    expect(previousRelease(catalog, join(scratch, 'missing.json'))).toBeUndefined();
  });
});
