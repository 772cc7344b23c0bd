import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { CLIENT_TYPES_FILE, clientTypes, servedOpenApiDocument } from '../../tools/client-types.js';

/** The first line where `actual` and `expected` part, to show what drifted without printing a megabyte. */
function firstDifference(actual: string, expected: string): string {
  const actualLines = actual.split('\n');
  const expectedLines = expected.split('\n');
  const line = actualLines.findIndex((text, index) => text !== expectedLines[index]);
  const at = line === -1 ? actualLines.length : line;
  return `line ${at + 1}: committed ${JSON.stringify(actualLines[at] ?? '(end of file)')}, generated ${JSON.stringify(expectedLines[at] ?? '(end of file)')}`;
}

describe('the typed client (clients/typescript)', () => {
  it('its generated module is what /openapi.json generates now', async () => {
    const committed = await readFile(CLIENT_TYPES_FILE, 'utf8');
    const generated = await clientTypes(await servedOpenApiDocument());
    assert.ok(
      committed === generated,
      `clients/typescript/src/openapi.ts differs from what /openapi.json generates (${firstDifference(committed, generated)}): run npm run client:generate`,
    );
  });
});
