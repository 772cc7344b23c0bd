import { writeFile } from 'node:fs/promises';
import { CatalogFile } from '../src/catalog/file/catalog-file-schema.js';
import { commandLineOrExit } from '../src/lib/command-line.js';

/** Regenerates docs/catalog.schema.json from the schema the importer validates with. */
commandLineOrExit(
  `usage: npm run docs:schema

Writes docs/catalog.schema.json (JSON Schema 2020-12) from the schema the importer
validates catalog files with. Takes no options.`,
  {},
);
const target = new URL('../docs/catalog.schema.json', import.meta.url);
const schema = { $schema: 'https://json-schema.org/draft/2020-12/schema', ...CatalogFile };
await writeFile(target, `${JSON.stringify(schema, null, 2)}\n`);
console.log(`wrote ${target.pathname}`);
