import { createRequire } from 'node:module';
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
  it('shares React, its deep imports and JSX runtime, the router, jotai and the state library as lazy singletons', () => {
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

  it('refuses a front-end that does not depend on a shared library', () => {
    const { jotai: _jotai, ...withoutJotai } = frontEnd.dependencies;
    expect(() => sharedDependencies({ ...frontEnd, dependencies: withoutJotai })).toThrow(
      /"jotai" must be a dependency/,
    );
  });
});
