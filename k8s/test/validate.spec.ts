import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { SCENES, type KubeObject, kustomize, tool, wholeFolder } from './support/render';

/** The Kubernetes version the manifests are written for; kubernetes-validate ships its schemas. */
const KUBERNETES_VERSION = '1.37.0';
/**
 * kube-score's only opinion set aside: it wants imagePullPolicy Always, which matters for mutable tags.
 * Ours are release versions pinned per environment, and Always would make every pod start depend on
 * the registry answering.
 */
const KUBE_SCORE_IGNORED = ['container-image-pull-policy'];

const scratch = mkdtempSync(join(tmpdir(), 'shop-k8s-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/**
 * Writes objects as one multi-document YAML file. YAML 1.1, as the Python and Go readers of these tools
 * read it: a 1.2 writer leaves a string like `off` unquoted, which 1.1 reads as a boolean.
 */
function manifestFile(name: string, objects: KubeObject[]): string {
  const file = join(scratch, `${name.replaceAll('/', '-')}.yaml`);
  writeFileSync(file, objects.map((object) => stringify(object, { version: '1.1' })).join('---\n'));
  return file;
}

function kubernetesValidate(...files: string[]) {
  const result = spawnSync(
    tool('kubernetesValidate'),
    ['--strict', '--kubernetes-version', KUBERNETES_VERSION, '--quiet', ...files],
    { encoding: 'utf8' },
  );
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}`.trim() };
}

interface KubeScoreObject {
  object_name: string;
  type_meta: { kind: string };
  checks: {
    check: { id: string };
    grade: number;
    skipped: boolean;
    comments: { summary: string }[] | null;
  }[];
}
/** kube-score's grades (scorecard.Grade): 1 critical, 5 warning, 7 almost OK, 10 all OK. */
const CRITICAL = 1;
const WARNING = 5;

/** kube-score's findings of a grade or worse, one line each: `kind/name check-id: summary`. */
function kubeScore(file: string, worstAllowed = CRITICAL): string[] {
  const result = spawnSync(
    tool('kubeScore'),
    [
      'score',
      '--output-format',
      'json',
      '--kubernetes-version',
      `v${KUBERNETES_VERSION.split('.').slice(0, 2).join('.')}`,
      ...KUBE_SCORE_IGNORED.flatMap((id) => ['--ignore-test', id]),
      file,
    ],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 },
  );
  if (result.error) throw result.error;
  if (!result.stdout.trim().startsWith('[')) throw new Error(`kube-score failed:\n${result.stderr}`);
  return (JSON.parse(result.stdout) as KubeScoreObject[]).flatMap((object) =>
    object.checks
      .filter((check) => !check.skipped && check.grade <= worstAllowed)
      .flatMap((check) =>
        (check.comments ?? [{ summary: '' }]).map(
          (comment) => `${object.type_meta.kind}/${object.object_name} ${check.check.id}: ${comment.summary}`,
        ),
      ),
  );
}

describe('kubernetes-validate (offline JSON schemas, strict)', () => {
  it(`accepts the base, both overlays and the example Secrets as Kubernetes ${KUBERNETES_VERSION} objects, no unknown field`, () => {
    // Each distinct object once: the environments share most of the base's, and the validator reads
    // its schemas again for every object it checks.
    const distinct = new Map(
      [
        ...SCENES.map(({ environment }) => wholeFolder(environment)),
        'examples/dev-secrets',
        'examples/prod-secrets',
      ]
        .flatMap((folder) => kustomize(folder))
        .map((object) => [JSON.stringify(object), object]),
    );
    const { status, output } = kubernetesValidate(manifestFile('distinct', [...distinct.values()]));
    expect(output).toBe('');
    expect(status).toBe(0);
    // About 3 s for some 150 objects; room for a machine busy with the rest of npm test.
  }, 60_000);

  it('really checks: it refuses a field the schema does not know, and a wrong type', () => {
    const deployment = kustomize(wholeFolder('prod')).find((object) => object.kind === 'Deployment')!;
    const unknownField = manifestFile('unknown-field', [
      { ...deployment, spec: { ...deployment.spec, colour: 'blue' } } as KubeObject,
    ]);
    const wrongType = manifestFile('wrong-type', [
      { ...deployment, spec: { ...deployment.spec, revisionHistoryLimit: 'five' } } as KubeObject,
    ]);
    const unknown = kubernetesValidate(unknownField);
    expect(unknown.status).not.toBe(0);
    expect(unknown.output).toContain("'colour' was unexpected");
    const wrong = kubernetesValidate(wrongType);
    expect(wrong.status).not.toBe(0);
    expect(wrong.output).toContain('revisionHistoryLimit');
  });
});

describe('kube-score', () => {
  it.each(SCENES)('$scene: finds nothing critical', ({ environment }) => {
    const folder = wholeFolder(environment);
    expect(kubeScore(manifestFile(folder, kustomize(folder)))).toEqual([]);
  });

  it.each(SCENES)('$scene: and no warning either', ({ environment }) => {
    const folder = wholeFolder(environment);
    expect(kubeScore(manifestFile(folder, kustomize(folder)), WARNING)).toEqual([]);
  });

  it('really checks: a pod running as a low user id without ephemeral-storage bounds is critical', () => {
    const deployment = kustomize(wholeFolder('prod')).find((object) => object.kind === 'Deployment')!;
    const template = deployment.spec!.template!;
    const [container] = template.spec.containers;
    const weakened = {
      ...deployment,
      spec: {
        ...deployment.spec,
        template: {
          ...template,
          spec: {
            ...template.spec,
            securityContext: { ...template.spec.securityContext, runAsUser: 1000 },
            containers: [
              {
                ...container!,
                resources: {
                  requests: { cpu: '100m', memory: '128Mi' },
                  limits: { cpu: '1', memory: '512Mi' },
                },
              },
            ],
          },
        },
      },
    } as KubeObject;
    const findings = kubeScore(manifestFile('weakened', [weakened]));
    expect(findings.some((finding) => finding.includes('container-security-context-user-group-id'))).toBe(
      true,
    );
    expect(
      findings.some((finding) => finding.includes('container-ephemeral-storage-request-and-limit')),
    ).toBe(true);
  });
});
