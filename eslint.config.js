import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layers of README's "Project layout", as import paths each folder of src/ may not
 * use (gitignore-style patterns on the import specifier; imports are relative). Import
 * cycles are checked by dpdm in `npm run lint`.
 */
const FEATURES = ['catalog', 'sandbox', 'mcp', 'operations', 'admin'];
const COMPOSITION = ['app', 'server', 'openapi-document'];
const TOOLING = ['**/bench/**', '**/test/**', '**/tools/**'];

const layer = (folder, forbidden, message) => ({
  files: [`src/${folder}/**/*.ts`],
  rules: {
    'no-restricted-imports': ['error', { patterns: [{ group: [...forbidden, ...TOOLING], message }] }],
  },
});
const featureFolders = (names) => names.map((name) => `**/${name}/**`);
const compositionModules = COMPOSITION.map((name) => `**/${name}.js`);

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-non-null-assertion': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  ...['http', 'store', 'redis', 'lib'].map((shared) =>
    layer(
      shared,
      [...featureFolders(FEATURES), ...compositionModules],
      `src/${shared} is a shared layer: it knows no feature. Pass what it needs in from the feature or from app.ts.`,
    ),
  ),
  layer('catalog', [...featureFolders(['sandbox', 'mcp', 'operations', 'admin']), ...compositionModules], 'The catalog never imports the sandbox, MCP, operations or the admin API.'),
  layer('sandbox', [...featureFolders(['mcp', 'operations', 'admin']), ...compositionModules], 'The sandbox never imports MCP, operations or the admin API.'),
  layer('admin', [...featureFolders(['sandbox', 'mcp', 'operations']), ...compositionModules], 'The admin API never imports the sandbox, MCP or operations.'),
  layer(
    'mcp',
    [...featureFolders(['store', 'operations', 'admin']), '**/*-store.js', '**/read-model/load-products.js', '**/catalog/write/**', ...compositionModules],
    'MCP reaches storage only through the catalog and sandbox services.',
  ),
  layer('operations', [...featureFolders(['mcp']), ...compositionModules], 'Operations never imports MCP.'),
  {
    files: ['src/**/*.ts'],
    ignores: ['src/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        { object: 'process', property: 'env', message: 'Only src/config.ts reads the environment; take a Config instead.' },
      ],
    },
  },
);
