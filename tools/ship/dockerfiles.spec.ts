// The images' recipes, checked with hadolint (a maintained Dockerfile linter) and against what the
// shop requires of every image: uid/gid 10001, and no npm in a production service image.
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { repoRoot } from './deployables.mjs';
import { output, run, tool } from './tools.js';

const dockerfiles = readdirSync(join(repoRoot, 'docker'))
  .filter((name) => name.endsWith('.Dockerfile'))
  .map((name) => `docker/${name}`);
const scratch = mkdtempSync(join(tmpdir(), 'ship-dockerfiles-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The instructions of the last stage: what the shipped image is made of. */
function finalStage(dockerfile: string): string {
  const text = readFileSync(join(repoRoot, dockerfile), 'utf8');
  return text.slice(text.lastIndexOf('\nFROM '));
}

describe('the Dockerfiles', () => {
  it('are found (the images of the shop)', () => {
    expect(dockerfiles).toEqual([
      'docker/frontend.Dockerfile',
      'docker/render.Dockerfile',
      'docker/service.Dockerfile',
    ]);
  });

  it.each(dockerfiles)('%s passes hadolint at its default strictness', (dockerfile) => {
    const result = run(tool('hadolint'), ['--no-color', dockerfile]);
    expect(output(result), output(result)).toBe('');
    expect(result.status).toBe(0);
  });

  it.each(dockerfiles)('%s justifies each hadolint ignore in a comment above it', (dockerfile) => {
    const lines = readFileSync(join(repoRoot, dockerfile), 'utf8').split('\n');
    lines.forEach((line, index) => {
      if (!/#\s*hadolint\s+ignore=/.test(line)) return;
      const above = lines[index - 1] ?? '';
      expect(above, `${dockerfile}:${index + 1}: say why above the ignore`).toMatch(/^\s*#\s*\S/);
      expect(above).not.toMatch(/hadolint/);
    });
  });

  it('hadolint does fail a Dockerfile that breaks its rules (the check can fail)', () => {
    const bad = join(scratch, 'bad.Dockerfile');
    writeFileSync(bad, 'FROM node:latest\nRUN apt-get update && apt-get install -y curl\nRUN cd /app\n');
    const result = run(tool('hadolint'), ['--no-color', bad]);
    expect(result.status).not.toBe(0);
    expect(output(result)).toMatch(/DL3007/); // latest tag
    expect(output(result)).toMatch(/DL3003/); // cd in RUN
  });

  it.each(dockerfiles)('%s runs its image as uid and gid 10001, by number', (dockerfile) => {
    const users = [...finalStage(dockerfile).matchAll(/^USER\s+(\S+)/gm)].map((match) => match[1]);
    expect(users.at(-1)).toBe('10001:10001');
  });

  it('the service image keeps node and removes npm, npx and corepack', () => {
    const stage = finalStage('docker/service.Dockerfile');
    for (const path of [
      '/usr/local/lib/node_modules',
      '/usr/local/bin/npm',
      '/usr/local/bin/npx',
      '/usr/local/bin/corepack',
    ])
      expect(stage).toContain(path);
    expect(stage).toMatch(/^RUN rm -rf /m);
    expect(stage).toMatch(/^CMD \["node", /m);
    // The removal is the final stage's only RUN: nothing there installs or runs packages.
    expect(stage.match(/^RUN /gm)).toHaveLength(1);
  });

  it("the service image runs the project's own Node release", () => {
    const rootPackage = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8'));
    const node = rootPackage.devDependencies.node as string;
    const text = readFileSync(join(repoRoot, 'docker/service.Dockerfile'), 'utf8');
    expect(text).toContain(`ARG NODE_IMAGE=node:${node}-slim`);
  });
});
