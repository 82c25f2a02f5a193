import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { type KubeObject, kustomize, podTemplateOf } from './support/render';

/** Six months, the least HSTS that counts (MDN HTTP Observatory, docs/security.md). */
const SIX_MONTHS_S = 15_552_000;

interface Ingress {
  metadata: KubeObject['metadata'] & { annotations?: Record<string, string> };
  spec: {
    tls?: { hosts?: string[]; secretName?: string }[];
    rules?: { host?: string; http?: { paths: { backend: { service: { name: string } } }[] } }[];
  };
}

/** The response headers Kong's response-transformer adds, read from the kong.yml in Kong's ConfigMap. */
function kongAddedHeaders(objects: KubeObject[]): Map<string, string> {
  const configMap = objects.find(
    (object) => object.kind === 'ConfigMap' && object.metadata.name.startsWith('kong-declarative-config'),
  ) as (KubeObject & { data: Record<string, string> }) | undefined;
  const kongYml = parse(configMap?.data['kong.yml'] ?? '') as {
    plugins?: { name: string; config?: { add?: { headers?: string[] } } }[];
  };
  const transformer = kongYml.plugins?.find((plugin) => plugin.name === 'response-transformer');
  return new Map(
    (transformer?.config?.add?.headers ?? []).map((entry) => {
      const colon = entry.indexOf(':');
      return [entry.slice(0, colon).toLowerCase(), entry.slice(colon + 1)];
    }),
  );
}

describe('the production edge (k8s/overlays/prod)', () => {
  const prod = kustomize('overlays/prod');

  it('answers plain HTTP with a redirect to HTTPS, for the host it has a certificate for', () => {
    const ingresses = prod.filter((object) => object.kind === 'Ingress') as unknown as Ingress[];
    expect(ingresses).toHaveLength(1);
    const [edge] = ingresses;
    expect(edge!.metadata.annotations).toMatchObject({
      'nginx.ingress.kubernetes.io/ssl-redirect': 'true',
      'nginx.ingress.kubernetes.io/force-ssl-redirect': 'true',
    });
    const tlsHosts = edge!.spec.tls?.flatMap((tls) => tls.hosts ?? []) ?? [];
    for (const rule of edge!.spec.rules ?? []) {
      expect(tlsHosts).toContain(rule.host);
      expect(rule.http?.paths.map((path) => path.backend.service.name)).toEqual(['kong']);
    }
    expect(edge!.spec.tls?.every((tls) => Boolean(tls.secretName))).toBe(true);
  });

  it('lets no plain HTTP around the edge: Kong is reachable only inside the cluster', () => {
    const kong = prod.find((object) => object.kind === 'Service' && object.metadata.name === 'kong') as
      (KubeObject & { spec: { type?: string } }) | undefined;
    expect(kong?.spec.type ?? 'ClusterIP').toBe('ClusterIP');
    const exposed = prod.filter(
      (object) =>
        object.kind === 'Service' &&
        ['LoadBalancer', 'NodePort'].includes(
          (object as KubeObject & { spec: { type?: string } }).spec.type ?? '',
        ),
    );
    expect(exposed.map((object) => object.metadata.name)).toEqual([]);
  });

  it('sends HSTS for at least six months on every answer, and Kong takes the client address from the edge', () => {
    const hsts = kongAddedHeaders(prod).get('strict-transport-security') ?? '';
    const maxAge = Number(/max-age=(\d+)/.exec(hsts)?.[1] ?? 0);
    expect(maxAge).toBeGreaterThanOrEqual(SIX_MONTHS_S);
    const deployment = prod.find(
      (object) => object.kind === 'Deployment' && object.metadata.name === 'kong',
    )!;
    const env = podTemplateOf(deployment).spec.containers[0]?.env ?? [];
    expect(env).toEqual(
      expect.arrayContaining([
        { name: 'KONG_REAL_IP_HEADER', value: 'X-Forwarded-For' },
        { name: 'KONG_REAL_IP_RECURSIVE', value: 'on' },
      ]),
    );
  });
});
