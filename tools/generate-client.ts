import { writeFile } from 'node:fs/promises';
import { commandLineOrExit } from '../src/lib/command-line.js';
import { CLIENT_TYPES_FILE, clientTypes, servedOpenApiDocument } from './client-types.js';

/** Regenerates the typed client's module from the app's own /openapi.json. */
commandLineOrExit(
  `usage: npm run client:generate

Writes clients/typescript/src/openapi.ts, the types and operation lists of the typed
client (@vetrina/client), with openapi-typescript from /openapi.json as the app serves
it with the default configuration (built in this process: no server needs to run).
Run it after changing a public route or schema; npm test fails until you do.
Takes no options.`,
  {},
);
await writeFile(CLIENT_TYPES_FILE, await clientTypes(await servedOpenApiDocument()));
console.log(`wrote ${CLIENT_TYPES_FILE.pathname}`);
