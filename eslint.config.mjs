import js from '@eslint/js';
import nx from '@nx/eslint-plugin';
import tseslint from 'typescript-eslint';

/** Test code: the tests themselves and the harnesses in testing/ folders (libs/testing's included). */
const TEST_CODE = ['**/*.test.ts', '**/testing/**'];

/**
 * What each type of project (its tag in project.json) may import in its production code.
 * Apps are never imported, nor e2e projects (the rule itself forbids both).
 */
const PRODUCTION_DEPENDENCIES = {
  'type:app': ['type:composition', 'type:domain', 'type:infrastructure'],
  // The Nest wiring the HTTP apps share: infrastructure and the account sessions behind the guard.
  'type:composition': ['type:domain', 'type:infrastructure'],
  'type:domain': ['type:domain', 'type:infrastructure'],
  'type:infrastructure': ['type:infrastructure'],
  'type:testing': ['type:testing', 'type:tooling', 'type:domain', 'type:infrastructure'],
  'type:tooling': ['type:tooling', 'type:testing', 'type:domain', 'type:infrastructure'],
  'type:e2e': ['type:testing', 'type:tooling', 'type:domain', 'type:infrastructure'],
};

/** Test code may also use the test harnesses and the generated mail. */
const TEST_DEPENDENCIES = Object.fromEntries(
  Object.entries(PRODUCTION_DEPENDENCIES).map(([tag, allowed]) => [tag, [...new Set([...allowed, 'type:testing', 'type:tooling'])]]),
);

function moduleBoundaries(dependencies) {
  return [
    'error',
    {
      depConstraints: Object.entries(dependencies).map(([sourceTag, onlyDependOnLibsWithTags]) => ({ sourceTag, onlyDependOnLibsWithTags })),
    },
  ];
}

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', '**/generated/**', 'bench/results/**', 'var/**', 'tmp/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    plugins: { '@nx': nx },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': ['error', { allow: ['warn', 'error'] }],
      '@nx/enforce-module-boundaries': moduleBoundaries(PRODUCTION_DEPENDENCIES),
    },
  },
  {
    files: ['apps/**', 'libs/**'],
    ignores: TEST_CODE,
    rules: {
      // Below the projects too: production code never reaches into a testing/ folder, its own or another library's entry to one.
      'no-restricted-imports': [
        'error',
        { patterns: [{ regex: '^(\\.{1,2}/(.+/)?|@letterbox/[^/]+/)testing(/|$)', message: 'test code: production code may not import it' }] },
      ],
    },
  },
  {
    files: TEST_CODE,
    rules: { '@nx/enforce-module-boundaries': moduleBoundaries(TEST_DEPENDENCIES) },
  },
  {
    files: ['bench/**', 'scripts/**', 'tools/**', ...TEST_CODE],
    rules: { 'no-console': 'off' },
  },
  {
    // Node loads these itself, before any TypeScript can be compiled (tools/test-register.cjs is that compiler's hook).
    files: ['tools/**/*.cjs'],
    languageOptions: {
      sourceType: 'commonjs',
      globals: { require: 'readonly', module: 'writable', __dirname: 'readonly', process: 'readonly', Buffer: 'readonly' },
    },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
