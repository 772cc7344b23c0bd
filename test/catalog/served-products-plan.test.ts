import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CompiledQuery, sql } from 'kysely';
import type { Db } from '../../src/store/database.js';
import { servedProductsAfter } from '../../src/catalog/read-model/load-products.js';
import { useTestApp } from '../support/test-app.js';

const testApp = useTestApp();

/**
 * A full build reads the served products a page at a time in id order. Each page must be
 * a range of an index in that order: a plan that sorts the served products for every page
 * makes a start's work grow with the square of the catalog (36 of 42 s at 100,000
 * products on SQLite, migration 0014).
 */
test('a page of served products is read in index order, with no sort', async () => {
  const { db, dialect } = testApp.store;
  const page = servedProductsAfter(db, 'prod_', 1000).compile();
  const explain = async <Row>(on: Pick<Db, 'executeQuery'>, verb: string) => (await on.executeQuery<Row>(CompiledQuery.raw(`${verb} ${page.sql}`, [...page.parameters]))).rows;
  if (dialect === 'sqlite') {
    // SQLite plans the same way whatever the table holds (no statistics are gathered).
    const details = (await explain<{ detail: string }>(db, 'EXPLAIN QUERY PLAN')).map((row) => row.detail);
    assert.ok(!details.some((detail) => detail.includes('TEMP B-TREE')), details.join('\n'));
    assert.ok(details.some((detail) => detail.includes('products_served_idx')), details.join('\n'));
  } else {
    // PostgreSQL's planner weighs the table's size: a small one is scanned whole and sorted.
    // Scans of the table switched off, the index must answer the page in order.
    await db.transaction().execute(async (trx) => {
      await sql`SET LOCAL enable_seqscan = off`.execute(trx);
      await sql`SET LOCAL enable_sort = off`.execute(trx);
      const text = (await explain<{ 'QUERY PLAN': string }>(trx, 'EXPLAIN')).map((row) => row['QUERY PLAN']).join('\n');
      assert.ok(!/\bSort\b/.test(text), text);
      assert.ok(text.includes('products_served_idx'), text);
    });
  }
});
