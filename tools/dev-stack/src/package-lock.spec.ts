import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from './stack.js';

interface LockEntry {
  optionalDependencies?: Record<string, string>;
}

/** Where Node (and npm) would find `name` for the package at `from`: its own node_modules, then each parent's. */
function resolveIn(packages: Record<string, LockEntry>, from: string, name: string): string | undefined {
  let dir = from;
  for (;;) {
    const candidate = `${dir ? `${dir}/` : ''}node_modules/${name}`;
    if (packages[candidate]) return candidate;
    if (!dir) return undefined;
    const parent = dir.lastIndexOf('/node_modules/');
    dir = parent >= 0 ? dir.slice(0, parent) : '';
  }
}

describe('package-lock.json', () => {
  // An `npm install` run with a node_modules already present can drop the optional binaries of other
  // platforms (swc, rspack, ...) from the lock (npm/cli#4828); `npm ci` then refuses the lock on every
  // fresh clone, and an `npm install` there rewrites it: the tree is dirty before anyone changed anything.
  it("records every platform's optional packages, so `npm ci` takes it on any machine", () => {
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, LockEntry>;
    };
    const missing = Object.entries(lock.packages).flatMap(([path, entry]) =>
      Object.keys(entry.optionalDependencies ?? {})
        .filter((name) => !resolveIn(lock.packages, path, name))
        .map((name) => `${name} (optional dependency of ${path || 'the root'})`),
    );
    expect(
      missing,
      'missing from the lock: run `npm install --package-lock-only` in a fresh clone (no node_modules) and commit its lock',
    ).toEqual([]);
  });
});
