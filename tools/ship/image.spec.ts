// The Nx target `image` of every deployable: which image it builds, from what, and that without a
// Docker engine it fails saying so instead of pretending.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { findDeployable, listDeployables, repoRoot } from './deployables.mjs';
import { imageCommands, previousRelease } from './image.mjs';
import { output, run } from './tools.js';

const deployables = listDeployables();
const scratch = mkdtempSync(join(tmpdir(), 'ship-image-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the deployables', () => {
  it('are the six services and the four front-ends, each with the Nx target image', () => {
    expect(deployables.map((d) => d.name)).toEqual([
      'data',
      'media',
      'mf-admin',
      'mf-catalog',
      'mf-checkout',
      'orders',
      'products',
      'shell',
      'users',
      'wallet',
    ]);
  });

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
