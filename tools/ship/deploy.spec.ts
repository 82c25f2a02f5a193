// The deploy command of the pipelines (deploy.mjs): what it applies and how. That it deploys for real, as
// a team's identity on a real API server, is k8s/test/cluster.spec.ts's (it runs this very script).
import { describe, expect, it } from 'vitest';
import { findImages } from './deployables.mjs';
import { deploy, deployCommands, releaseOf } from './deploy.mjs';
import { output, run, tool } from './tools.js';

type Pod = { spec: { template: { spec: { containers: { image: string }[] } } } };
type Rendered = { kind: string; metadata: { name: string } } & Partial<Pod>;

/** A unit's render as the pipeline makes it (kustomize build, from the repository root). */
function rendered(unit: string, environment: string): string {
  const result = run(tool('kustomize'), deployCommands(unit, environment).render);
  if (result.status !== 0) throw new Error(output(result));
  return result.stdout;
}
const imagesOf = (objects: Rendered[]) =>
  objects.flatMap((object) => object.spec?.template?.spec.containers.map((c) => c.image) ?? []);

describe('deploy.mjs', () => {
  it("applies a unit server-side under its team's field manager, then waits for its Deployment", () => {
    expect(deployCommands('mf-catalog-render', 'prod', { timeout: '3m' })).toEqual({
      render: ['build', 'k8s/overlays/prod/mf-catalog-render'],
      apply: [
        'apply',
        '--server-side',
        '--field-manager=team-mf-catalog-render',
        '--force-conflicts',
        '-f',
        '-',
      ],
      rollout: ['-n', 'shop', 'rollout', 'status', 'deployment/mf-catalog-render', '--timeout=3m'],
    });
  });

  it('deploys the render as it is, or with the unit’s own image at another version and nothing else changed', () => {
    const [orders] = findImages('orders');
    const yaml = rendered('orders', 'dev');
    const asIs = releaseOf(yaml, orders!.image) as Rendered[];
    expect(imagesOf(asIs)).toEqual(['registry.example.com/shop/orders:0.1.0']);

    const shipped = releaseOf(yaml, orders!.image, '9.9.9') as Rendered[];
    expect(imagesOf(shipped)).toEqual(['registry.example.com/shop/orders:9.9.9']);
    const withoutImages = (objects: Rendered[]) =>
      JSON.stringify(objects).replaceAll(/registry\.example\.com\/shop\/orders:[0-9.]+/g, '');
    expect(withoutImages(shipped)).toBe(withoutImages(asIs));
  });

  it("refuses a version for a render that runs none of the unit's image", () => {
    const [products] = findImages('products');
    expect(() => releaseOf(rendered('orders', 'dev'), products!.image, '9.9.9')).toThrow(
      'no container of the render runs registry.example.com/shop/products',
    );
  });

  it('names a front-end’s render service with it, and refuses an unknown environment', () => {
    expect(findImages('mf-catalog').map((image) => image.name)).toEqual(['mf-catalog', 'mf-catalog-render']);
    expect(() => deploy('orders', 'staging')).toThrow("unknown environment 'staging': one of dev, prod");
  });
});
