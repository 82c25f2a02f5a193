import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import prettier from 'eslint-config-prettier';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

/**
 * Which kinds of project may import which: remotes never import remotes, services never import services.
 * Every project may use the test library (`scope:test`) for its tests.
 */
const scopeConstraints = [
  { sourceTag: 'scope:shared', onlyDependOnLibsWithTags: ['scope:shared'] },
  { sourceTag: 'scope:client', onlyDependOnLibsWithTags: ['scope:shared', 'scope:client', 'scope:test'] },
  { sourceTag: 'scope:server', onlyDependOnLibsWithTags: ['scope:shared', 'scope:server', 'scope:test'] },
  { sourceTag: 'scope:test', onlyDependOnLibsWithTags: ['scope:shared', 'scope:test', 'scope:tooling'] },
  // Local infrastructure (@shop/infra): processes, tool paths, embedded servers; depends on nothing of ours.
  { sourceTag: 'scope:tooling', onlyDependOnLibsWithTags: ['scope:tooling'] },
  { sourceTag: 'type:remote', onlyDependOnLibsWithTags: ['scope:shared', 'scope:client', 'scope:test'] },
  { sourceTag: 'scope:shell', onlyDependOnLibsWithTags: ['scope:shared', 'scope:client', 'scope:test'] },
  // Services may use the gateway in their tests, to prove their rules through the real edge.
  {
    sourceTag: 'type:service',
    onlyDependOnLibsWithTags: ['scope:shared', 'scope:server', 'scope:test', 'scope:gateway'],
  },
  { sourceTag: 'scope:gateway', onlyDependOnLibsWithTags: ['scope:shared', 'scope:test'] },
  {
    sourceTag: 'type:tool',
    onlyDependOnLibsWithTags: ['scope:shared', 'scope:tooling', 'scope:gateway', 'scope:build'],
  },
  // The front-ends' build (@shop/webpack-preset) uses only the local infrastructure.
  { sourceTag: 'scope:build', onlyDependOnLibsWithTags: ['scope:tooling'] },
  { sourceTag: 'type:e2e', onlyDependOnLibsWithTags: ['scope:shared', 'scope:test', 'scope:tools'] },
  // The LCP benchmark builds a static page of the catalogue's grid from the grid's own layout (@shop/ui).
  {
    sourceTag: 'type:bench',
    onlyDependOnLibsWithTags: ['scope:shared', 'scope:test', 'scope:tooling', 'scope:tools', 'scope:client'],
  },
  // The manifests' tests use the local infrastructure (where the checkers are installed).
  { sourceTag: 'type:deploy', onlyDependOnLibsWithTags: ['scope:tooling'] },
];

/**
 * What ships and what only runs beside it (docs/code-layout.md): `layer:runtime` projects (services, the
 * service kit, contracts, front-ends and their libraries, the gateway) are what a deployment runs;
 * `layer:test` (the test library, browser tests) and `layer:tooling` (local infrastructure, tools,
 * benchmarks, manifest checks) never are. Runtime sources import runtime projects only; their tests (TEST_FILES) may also
 * import the test and tooling projects.
 */
const depConstraints = [
  ...scopeConstraints,
  { sourceTag: 'layer:runtime', onlyDependOnLibsWithTags: ['layer:runtime'] },
];
const testDepConstraints = [
  ...scopeConstraints,
  { sourceTag: 'layer:runtime', onlyDependOnLibsWithTags: ['layer:runtime', 'layer:test', 'layer:tooling'] },
];

/** The module-boundaries rule for these files, under these constraints. */
const boundaries = (files, constraints) => ({
  files,
  plugins: { '@nx': nx },
  rules: { '@nx/enforce-module-boundaries': ['error', { allow: [], depConstraints: constraints }] },
});

/** The constraints, with the projects of these source tags allowed the libraries of these tags too. */
const allowingAlso = (constraints, sourceTags, tags) =>
  constraints.map((constraint) =>
    sourceTags.includes(constraint.sourceTag)
      ? { ...constraint, onlyDependOnLibsWithTags: [...constraint.onlyDependOnLibsWithTags, ...tags] }
      : constraint,
  );

const TEST_FILES = [
  '**/*.{spec,test}.{ts,tsx,mts,mjs,cjs,js}',
  '**/test/**',
  '**/__tests__/**',
  // Testing entries of runtime libraries (`@shop/service-kit/testing`, `@shop/ui`'s src/testing).
  'libs/*/testing/**',
  '**/src/**/testing/**',
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-server/**',
      '**/node_modules/**',
      '**/.nx/**',
      '**/coverage/**',
      '**/.data/**',
      '**/test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.{ts,tsx,js,mjs,cjs}'],
    plugins: { '@nx': nx },
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@nx/enforce-module-boundaries': ['error', { allow: [], depConstraints }],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
      'no-console': ['error', { allow: ['error', 'warn'] }],
    },
  },
  boundaries(TEST_FILES, testDepConstraints),
  // The service kit's testing entry (@shop/service-kit/testing) puts the real gateway in front of the
  // service under test, as services' own tests do; the kit's runtime code may not import the gateway.
  boundaries(
    ['libs/service-kit/testing/**'],
    allowingAlso(testDepConstraints, ['scope:server'], ['scope:gateway']),
  ),
  // A front-end's webpack.config.cjs is its build, not its app: it enters the build preset by package name.
  boundaries(
    ['shell/webpack.config.cjs', 'mf-*/webpack.config.cjs'],
    allowingAlso(
      depConstraints,
      ['type:remote', 'scope:shell', 'layer:runtime'],
      ['scope:build', 'layer:tooling'],
    ),
  ),
  {
    // NestJS injects by the runtime class a constructor parameter names: such imports must stay
    // value imports, which these options tell consistent-type-imports.
    files: ['services/**/*.ts', 'libs/service-kit/**/*.ts'],
    languageOptions: { parserOptions: { emitDecoratorMetadata: true, experimentalDecorators: true } },
  },
  {
    // Command-line programs talk to their user on stdout.
    files: [
      'tools/**',
      'bench/**',
      'e2e/**',
      'libs/infra/ensure-tools.mjs',
      'libs/infra/install/**',
      'libs/static-server/src/serve-static.mjs',
    ],
    rules: { 'no-console': 'off' },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['shell/**/*.{ts,tsx}', 'mf-*/**/*.{ts,tsx}', 'libs/state/**/*.{ts,tsx}', 'libs/ui/**/*.{ts,tsx}'],
    plugins: { 'react-hooks': reactHooks },
    languageOptions: { globals: { ...globals.browser } },
    rules: reactHooks.configs.recommended.rules,
  },
  {
    // Features do not import each other; what two features need lives in src/shared/ (docs/code-layout.md).
    files: ['shell/src/features/**/*.{ts,tsx}', 'mf-*/src/features/**/*.{ts,tsx}'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^\\.\\./(?!\\.\\.)[^/]+/',
              message: 'Features do not import each other; move what both need to src/shared/.',
            },
            {
              regex: '(^|/)features/',
              message: 'Features do not import each other; move what both need to src/shared/.',
            },
          ],
        },
      ],
    },
  },
  prettier,
);
