// The Kubernetes units that run the shop's images, against the images tools/ship builds: each deployable
// (a front-end's extra images too) is the unit of its name, k8s/base/<name>, whose overlay in every
// environment tags that image; and every image of the shop's registry that k8s/ names is one a deployable
// builds, so no unit waits for an image no pipeline pushes. Which version each environment runs is
// k8s/test's to check (prod: the package.json version; dev: a released one).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { listDeployables, REGISTRY, repoRoot } from './deployables.mjs';

const deployables = listDeployables();
const k8s = join(repoRoot, 'k8s');
const environments = readdirSync(join(k8s, 'overlays'), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** The YAML files under a folder of k8s/, at any depth. */
function yamlFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && /\.ya?ml$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name));
}

/** The names of the shop's images (`registry.example.com/shop/<name>`) that a file mentions. */
function shopImagesIn(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const pattern = new RegExp(`${REGISTRY.replaceAll('.', '\\.')}/([a-z0-9][a-z0-9-]*)`, 'g');
  return [...text.matchAll(pattern)].map((match) => match[1] ?? '');
}

/** The `images:` entries of a kustomization. */
function imagesOf(folder: string): { name: string; newTag?: string }[] {
  const kustomization = parse(readFileSync(join(folder, 'kustomization.yaml'), 'utf8')) as {
    images?: { name: string; newTag?: string }[];
  };
  return kustomization.images ?? [];
}

describe('the Kubernetes units of the deployables', () => {
  it('finds the environments (k8s/overlays/<env>)', () => {
    expect(environments).toEqual(['dev', 'prod']);
  });

  it.each(deployables.map((d) => [d.name, d] as const))('k8s/base/%s runs the image of that name', (name) => {
    const unit = join(k8s, 'base', name);
    expect(existsSync(join(unit, 'kustomization.yaml')), `k8s/base/${name}/kustomization.yaml`).toBe(true);
    expect(yamlFiles(unit).flatMap(shopImagesIn)).toContain(name);
  });

  it.each(deployables.flatMap((d) => environments.map((environment) => [environment, d.name] as const)))(
    'k8s/overlays/%s/%s tags that image with a full version',
    (environment, name) => {
      const overlay = join(k8s, 'overlays', environment, name);
      expect(existsSync(join(overlay, 'kustomization.yaml')), `k8s/overlays/${environment}/${name}`).toBe(
        true,
      );
      const tags = imagesOf(overlay).filter((image) => image.name === `${REGISTRY}/${name}`);
      expect(tags).toHaveLength(1);
      expect(tags[0]?.newTag).toMatch(/^\d+\.\d+\.\d+(-[\w.]+)?$/);
    },
  );

  it("names no image of the shop's registry that no deployable builds (k8s/base, k8s/overlays)", () => {
    const named = new Set(
      ['base', 'overlays'].flatMap((folder) => yamlFiles(join(k8s, folder))).flatMap(shopImagesIn),
    );
    expect(named.size, 'k8s/ names the shop images').toBeGreaterThan(0);
    const unbuilt = [...named].filter((name) => !deployables.some((d) => d.name === name));
    expect(unbuilt, 'images that k8s/ runs and no deployable builds').toEqual([]);
  });
});
