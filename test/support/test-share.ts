import { readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const TEST_ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Loads every `share`-th of the `shares` test files (sorted, interleaved) into this one
 * process, for `npm test`. A process per file, node:test's default, spent most of the
 * suite's time starting up: each file loaded TypeScript through tsx and the service's
 * dependencies (typebox, the MCP SDK, Kysely...) again, about 2.5 s of CPU, more than
 * most files' own tests. One process per core keeps both cores busy and loads all that
 * once. Every test still builds its own app on its own store (test/support/test-app.ts),
 * and a single file still runs alone with `node --import tsx --test <file>`.
 */
export async function importTestShare(share: number, shares: number): Promise<void> {
  const files = readdirSync(TEST_ROOT, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.test.ts'))
    .sort();
  for (const [index, file] of files.entries()) {
    if (index % shares === share - 1) await import(path.join(TEST_ROOT, file));
  }
}
