/**
 * Child process of test/store/embedded-driver-gc.test.ts, run with --expose-gc: it
 * works the embedded store as a server does (many distinct statements, writes in
 * transactions, reads, deletes), then leaves the dead statements to the garbage
 * collector: idle first, then forced, then idle again while their finalisers run, with
 * the store still open, and once more after closing it. A native binding whose objects
 * cannot be finalised outside a JavaScript call (better-sqlite3 12 on Node.js 24.19 and
 * later) aborts the process here instead of exiting 0. No forced collection during the
 * work: it would finalise the statements while a call is current and hide the fault.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openStore, PREPARED_STATEMENTS } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';

const ROUNDS = 500;
const IDLE_MS = 2500;
const collectGarbage = (globalThis as { gc?: () => void }).gc;
if (!collectGarbage) throw new Error('run with --expose-gc');

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vetrina-store-churn-'));
const store = openStore({ databaseUrl: undefined, databasePoolSize: 1, sqlitePath: path.join(dir, 'vetrina.sqlite') });
let queries = 0;
try {
  await migrateToLatest(store.db);
  const now = new Date().toISOString();
  for (let round = 0; round < ROUNDS; round++) {
    const id = `key_${round}`;
    await store.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('sandbox_keys')
        .values({ id, token_hash: `hash_${round}`, scopes: 'cart:write', created_at: now, expires_at: now })
        .execute();
      await trx
        .insertInto('sandbox_carts')
        .values({ id: `cart_${round}`, key_id: id, currency: 'EUR', state: '{}', revision: 1, created_at: now, updated_at: now, expires_at: now })
        .execute();
    });
    await store.db.updateTable('sandbox_carts').set({ revision: round + 2 }).where('id', '=', `cart_${round}`).execute();
    // Statement texts of their own, as the catalog's IN lists give: more of them than the
    // store keeps prepared, so statements it lets go die while it is open.
    const ids = Array.from({ length: (round % (PREPARED_STATEMENTS + 50)) + 1 }, (_, i) => `cart_${round - i}`);
    await store.db.selectFrom('sandbox_carts').selectAll().where('id', 'in', ids).execute();
    await store.db.selectFrom('products').select('id').where('handle', '=', `handle-${round}`).execute();
    if (round % 2 === 0) await store.db.deleteFrom('sandbox_keys').where('id', '=', id).execute();
    queries += 6;
  }
  await sleep(IDLE_MS);
  collectGarbage();
  await sleep(IDLE_MS);
} finally {
  await store.close();
}
collectGarbage();
await sleep(500);
fs.rmSync(dir, { recursive: true, force: true });
console.log(JSON.stringify({ queries, node: process.version }));
