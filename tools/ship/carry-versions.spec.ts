import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from '@shop/infra/paths';

// docker/frontend.Dockerfile assembles each front-end image's web root with this script.
const SCRIPT = join(repoRoot(), 'docker', 'nginx', 'carry-versions.sh');

describe('carry-versions.sh', () => {
  let root: string;
  const folder = (path: string, files: Record<string, string> = { 'remoteEntry.js': path }) => {
    mkdirSync(join(root, path), { recursive: true });
    for (const [name, content] of Object.entries(files)) writeFileSync(join(root, path, name), content);
  };
  const carry = (version: string, keep = 10) =>
    spawnSync('sh', [SCRIPT, join(root, 'site'), version, join(root, 'previous'), String(keep)], {
      encoding: 'utf8',
    });
  const served = () => readdirSync(join(root, 'site')).sort();

  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'carry-versions-'));
    folder('previous', { 'index.html': 'the stock nginx page' });
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("keeps the previous image's versions beside the new one, and nothing else of it", () => {
    folder('previous/0.1.0');
    folder('previous/0.2.0-rc.1');
    folder('site/0.2.0');
    expect(carry('0.2.0').status).toBe(0);
    expect(served()).toEqual(['0.1.0', '0.2.0', '0.2.0-rc.1']);
  });

  it('keeps only the newest versions, a prerelease counting before its release, and always the new one', () => {
    for (const version of ['0.1.0', '0.2.0', '0.2.0-rc.1', '0.10.0']) folder(`previous/${version}`);
    folder('site/0.3.0');
    expect(carry('0.3.0', 3).status).toBe(0);
    expect(served()).toEqual(['0.10.0', '0.2.0', '0.3.0']);
  });

  it('accepts the same version rebuilt with the same files, and refuses it with other files', () => {
    folder('previous/0.2.0', { 'remoteEntry.js': 'same', 'mf-stats.json': '["a","b"]' });
    folder('site/0.2.0', { 'remoteEntry.js': 'same', 'mf-stats.json': '["b","a"]' });
    expect(carry('0.2.0').status).toBe(0);

    writeFileSync(join(root, 'site', '0.2.0', 'remoteEntry.js'), 'changed');
    const refused = carry('0.2.0');
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain('already published with different files: raise the version');
  });

  it('refuses a missing build or a name that is not a version', () => {
    expect(carry('0.2.0').stderr).toContain('The build of 0.2.0 is missing');
    folder('site/latest');
    expect(carry('latest').stderr).toContain('Not a version: latest');
  });
});
