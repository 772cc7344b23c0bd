import js from '@eslint/js';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import importX from 'eslint-plugin-import-x';
import tseslint from 'typescript-eslint';

const FEATURES = ['catalog', 'sandbox', 'mcp', 'operations'];
const COMPOSITION = ['./src/app.ts', './src/server.ts', './src/openapi-document.ts'];
const feature = (name) => `./src/${name}`;

/**
 * The layers of README's "Project layout": shared layers know no feature, features
 * depend on each other in one direction only, and nothing in src/ reaches the tooling.
 */
const layerZones = [
  ...['http', 'store', 'redis', 'lib'].map((shared) => ({
    target: `./src/${shared}`,
    from: [...FEATURES.map(feature), ...COMPOSITION],
    message: `src/${shared} is a shared layer: it knows no feature. Pass what it needs in from the feature or from app.ts.`,
  })),
  {
    target: feature('catalog'),
    from: [feature('sandbox'), feature('mcp'), feature('operations'), ...COMPOSITION],
    message: 'The catalog never imports the sandbox, MCP or operations.',
  },
  {
    target: feature('sandbox'),
    from: [feature('mcp'), feature('operations'), ...COMPOSITION],
    message: 'The sandbox never imports MCP or operations.',
  },
  {
    target: feature('mcp'),
    from: ['./src/store', feature('operations'), ...COMPOSITION],
    message: 'MCP reaches storage only through the catalog and sandbox services.',
  },
  {
    target: feature('operations'),
    from: [feature('mcp'), ...COMPOSITION],
    message: 'Operations never imports MCP.',
  },
  {
    target: './src',
    from: ['./bench', './test', './tools'],
    message: 'The product never imports tooling, benchmarks or tests.',
  },
];

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
  {
    files: ['src/**/*.ts'],
    plugins: { 'import-x': importX },
    settings: {
      ...importX.flatConfigs.typescript.settings,
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      'import-x/no-restricted-paths': ['error', { zones: layerZones }],
      'import-x/no-cycle': 'error',
    },
  },
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
