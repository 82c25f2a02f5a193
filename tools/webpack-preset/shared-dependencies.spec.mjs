import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, sep } from 'node:path';
import { repoRoot as findRepoRoot } from '@shop/infra/paths';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const require = createRequire(import.meta.url);
const { sharedDependencies } = require('./shared-dependencies.cjs');

const frontEnd = {
  name: '@shop/mf-test',
  dependencies: {
    react: '19.3.1',
    'react-dom': '19.3.1',
    'react-router-dom': '7.18.5',
    jotai: '3.0.1',
    'react-toastify': '11.2.0',
    '@shop/state': '0.1.0',
    '@radix-ui/react-dialog': '1.3.1',
  },
};

describe('sharedDependencies', () => {
  it('shares React, its deep imports and JSX runtime, the router, jotai and the state library as lazy singletons in a remote', () => {
    const shared = sharedDependencies(frontEnd);
    expect(Object.keys(shared)).toEqual(
      expect.arrayContaining([
        'react',
        'react/jsx-runtime',
        'react-dom',
        'react-dom/',
        'react-router-dom',
        'jotai',
        '@shop/state',
        '@radix-ui/react-dialog',
      ]),
    );
    for (const config of Object.values(shared)) {
      expect(config).toMatchObject({ singleton: true, eager: false });
    }
    expect(shared['react-dom/']).toMatchObject({ requiredVersion: '19.3.1' });
    expect(shared['@shop/state']).toMatchObject({ requiredVersion: '0.1.0' });
  });

  it('makes the host bundle its own copies of what every first screen runs (eager), and nothing else', () => {
    const shared = sharedDependencies(frontEnd, { host: true });
    const eager = Object.keys(shared).filter((key) => shared[key].eager);
    // The floor's libraries (first-load-floor.cjs) and the state library; not the toasts or the dialogs,
    // which the page loads when it reaches for them.
    expect(eager.sort()).toEqual(
      [
        '@shop/state',
        'jotai',
        'jotai/',
        'react',
        'react-dom',
        'react-dom/',
        'react-router-dom',
        'react/jsx-dev-runtime',
        'react/jsx-runtime',
      ].sort(),
    );
    for (const config of Object.values(shared)) expect(config).toMatchObject({ singleton: true });
  });

  it('refuses a front-end that does not depend on a shared library', () => {
    const { jotai: _jotai, ...withoutJotai } = frontEnd.dependencies;
    expect(() => sharedDependencies({ ...frontEnd, dependencies: withoutJotai })).toThrow(
      /"jotai" must be a dependency/,
    );
  });
});

describe('the react-router-dom subset shared by the front-ends', () => {
  const repoRoot = findRepoRoot();
  const frontEndSources = ['shell', 'mf-catalog', 'mf-checkout', 'mf-admin', 'libs/state', 'libs/ui']
    .flatMap((dir) => sourceFiles(join(repoRoot, dir, 'src')))
    // Tests and their helpers run against the real package (MemoryRouter and friends), never through the
    // share scope: they are the files that use a test library.
    .filter((file) => !/from '(vitest|@testing-library\/[a-z-]+)'/.test(readFileSync(file, 'utf8')))
    // The server builds (src/server, docs/decisions/0020) bundle the whole router for Node: no share scope.
    .filter((file) => !file.includes(`${sep}src${sep}server${sep}`));

  it('is what the builds share under the key react-router-dom', () => {
    const shared = sharedDependencies(frontEnd);
    expect(shared['react-router-dom']).toMatchObject({
      import: require.resolve('./shared-react-router-dom.mjs'),
      version: require('react-router-dom/package.json').version,
    });
    expect(shared['react-router']).toBeUndefined();
  });

  it('exports every name the front-ends import from react-router-dom or react-router', async () => {
    const subset = await import('./shared-react-router-dom.mjs');
    const imported = new Map();
    for (const file of frontEndSources) {
      for (const name of routerImports(file)) imported.set(name, file);
    }
    expect(imported.size).toBeGreaterThan(5);
    const missing = [...imported]
      .filter(([name]) => !(name in subset))
      .map(([name, file]) => `${name} (${file})`);
    expect(missing).toEqual([]);
  });
});

/** Every .ts/.tsx file under a folder. */
function sourceFiles(dir) {
  return readdirSync(dir, { recursive: true })
    .map((entry) => join(dir, String(entry)))
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'));
}

/** The value names a file imports from the router packages (type-only imports vanish at build time). */
function routerImports(file) {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const names = [];
  for (const statement of source.statements) {
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    if (!['react-router-dom', 'react-router'].includes(statement.moduleSpecifier.text)) continue;
    const clause = statement.importClause;
    if (!clause || clause.isTypeOnly) continue;
    const bindings = clause.namedBindings;
    if (clause.name || (bindings && ts.isNamespaceImport(bindings))) {
      throw new Error(`${file}: import the router's names one by one, so the shared subset can be checked`);
    }
    for (const element of bindings?.elements ?? []) {
      if (!element.isTypeOnly) names.push((element.propertyName ?? element.name).text);
    }
  }
  return names;
}
