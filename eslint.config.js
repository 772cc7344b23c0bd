import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layers of README's "Project layout", as import paths each folder of src/ may not
 * use (gitignore-style patterns on the import specifier; imports are relative). Import
 * cycles, type-only ones included, are checked by dpdm in `npm run lint`.
 */
const FEATURES = ['catalog', 'sandbox', 'mcp', 'operations', 'admin', 'portal', 'delivery', 'ucp', 'acp'];
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
const CATALOG_FORBIDDEN = [...featureFolders(['sandbox', 'mcp', 'operations', 'admin', 'portal', 'delivery', 'ucp', 'acp']), ...compositionModules];
/** Rooms of src/catalog, as import patterns: `../store/x.js`, `../../store/write/x.js`, `./store/x.js`. */
const catalogRooms = (names) => names.flatMap((name) => [`**/${name}/**`, `./${name}/**`]);

export default tseslint.config(
  { ignores: ['dist/', 'clients/typescript/dist/', 'node_modules/', 'data/', 'coverage/'] },
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
  layer('catalog', CATALOG_FORBIDDEN, 'The catalog never imports the sandbox, MCP, operations, the admin API, the portal or webhook delivery.'),
  // Inside the catalog (README, Project layout): the vocabulary (model) and the file format
  // know no layer above them; the store (the write protocol and the importer) knows no
  // reader; the read model and the query rules never speak the REST contract.
  layer('catalog/model', [...CATALOG_FORBIDDEN, ...catalogRooms(['file', 'store', 'read-model', 'queries', 'public-api'])], 'The catalog model is its vocabulary: it imports no other part of the catalog.'),
  layer('catalog/file', [...CATALOG_FORBIDDEN, ...catalogRooms(['store', 'read-model', 'queries', 'public-api'])], 'The catalog file format knows neither the store, the read model nor the public API.'),
  layer('catalog/store', [...CATALOG_FORBIDDEN, ...catalogRooms(['read-model', 'queries', 'public-api'])], 'The catalog store never imports the read model, the queries or the public API.'),
  layer('catalog/read-model', [...CATALOG_FORBIDDEN, ...catalogRooms(['queries', 'public-api'])], 'The read model never imports the queries above it or the public API.'),
  layer('catalog/queries', [...CATALOG_FORBIDDEN, ...catalogRooms(['public-api'])], 'The query rules never speak the REST contract: surfaces word their refusals.'),
  layer('sandbox', [...featureFolders(['mcp', 'operations', 'admin', 'portal', 'delivery', 'ucp', 'acp']), ...compositionModules], 'The sandbox never imports MCP, operations, the admin API, the portal, webhook delivery, UCP or ACP.'),
  // Webhook delivery carries events of the catalog (and later of orders): it reads the
  // change log through its own adapter and is managed through the admin API, never the reverse.
  layer(
    'delivery',
    [...featureFolders(['sandbox', 'mcp', 'operations', 'admin', 'portal', 'ucp', 'acp']), '**/read-model/**', '**/queries/**', '**/public-api/**', ...compositionModules],
    'Webhook delivery never imports the sandbox, MCP, operations, the admin API, the portal, UCP, ACP, or the catalog above its store.',
  ),
  layer('admin', [...featureFolders(['sandbox', 'mcp', 'operations', 'portal', 'ucp', 'acp']), ...compositionModules], 'The admin API never imports the sandbox, MCP, operations, the portal, UCP or ACP.'),
  layer(
    'mcp',
    [...featureFolders(['store', 'operations', 'admin', 'portal', 'ucp', 'acp']), '**/*-store.js', '**/read-model/load-products.js', ...compositionModules],
    'MCP reaches storage only through the catalog and sandbox services, and never imports UCP or ACP, which build on it.',
  ),
  layer('operations', [...featureFolders(['mcp', 'portal', 'ucp', 'acp']), ...compositionModules], 'Operations never imports MCP, the portal, UCP or ACP.'),
  // UCP is an adapter over the catalog and the sandbox (docs/ucp.md): it uses their
  // services, the MCP endpoint machinery and webhook delivery, never a store table
  // directly nor the admin API, operations or the portal; only app.ts composes it.
  layer(
    'ucp',
    [...featureFolders(['operations', 'admin', 'portal', 'acp']), '**/*-store.js', '**/read-model/load-products.js', ...compositionModules],
    'UCP reaches the catalog and the sandbox through their services; it never imports the admin API, operations, the portal or ACP.',
  ),
  // ACP is an adapter over the catalog and the sandbox (docs/acp.md), like UCP and beside
  // it: their services and webhook delivery, never a store table directly nor the admin
  // API, operations, the portal or UCP; only app.ts composes it.
  layer(
    'acp',
    [...featureFolders(['operations', 'admin', 'portal', 'ucp']), '**/*-store.js', '**/read-model/load-products.js', ...compositionModules],
    'ACP reaches the catalog and the sandbox through their services; it never imports the admin API, operations, the portal or UCP.',
  ),
  layer(
    'portal',
    [...featureFolders(['store', 'redis', 'sandbox', 'mcp', 'operations', 'admin', 'ucp', 'acp']), '**/*-store.js', '**/read-model/**', ...compositionModules],
    'The developer portal reads the catalog service and the OpenAPI document only: no storage, sandbox internals, MCP, operations, admin API, UCP or ACP.',
  ),
  {
    // Only the catalog's writer makes a LockedCatalog (src/catalog/store/locked-catalog.ts).
    files: ['src/**/*.ts'],
    ignores: ['src/catalog/store/catalog-writer.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: ":matches(TSAsExpression, TSTypeAssertion) > TSTypeReference > Identifier[name='LockedCatalog']",
          message: 'Only CatalogWriter.write makes a LockedCatalog: write the catalog through it.',
        },
      ],
    },
  },
  {
    // The portal's browser scripts: plain JavaScript run by the browser, not by Node.
    files: ['src/portal/assets/**/*.js'],
    languageOptions: {
      sourceType: 'script',
      globals: Object.fromEntries(['window', 'document', 'fetch', 'sessionStorage', 'URLSearchParams', 'setTimeout', 'clearTimeout'].map((name) => [name, 'readonly'])),
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
