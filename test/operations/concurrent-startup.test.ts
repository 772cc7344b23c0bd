import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import pg from 'pg';
import { DEMO_CATALOG_PATH, readCatalogFile } from '../../src/catalog/store/seed.js';
import { needsPostgres, postgresUrl } from '../support/production-services.js';
import { createDatabase, startTestApp, type TestApp } from '../support/test-app.js';

const INSTANCES = 5;

/**
 * Kysely's PostgreSQL adapter takes a session-level advisory lock (pg_advisory_lock)
 * around the whole migration run, so instances starting together on an empty database
 * migrate once and the others wait, then find nothing left to do.
 */
describe('several instances starting at once on one fresh PostgreSQL database', { skip: needsPostgres }, () => {
  it(`all ${INSTANCES} migrate, seed and become ready, and the store holds the demo catalog once`, async () => {
    const database = await createDatabase(postgresUrl!);
    const started = await Promise.allSettled(Array.from({ length: INSTANCES }, () => startTestApp({ config: { databaseUrl: database.url } })));
    const apps = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      const failures = started.flatMap((result) => (result.status === 'rejected' ? [String(result.reason)] : []));
      assert.deepEqual(failures, []);

      for (const app of apps) assert.equal((await app.app.inject({ url: '/readyz' })).statusCode, 200);
      const products = await Promise.all(apps.map((app: TestApp) => app.app.catalogReadModel.catalog.products.length));
      assert.equal(new Set(products).size, 1, `instances serve different catalogs: ${products}`);

      // The seeds raced too: the store must hold the demo catalog once, every product with its texts.
      const demo = await readCatalogFile(DEMO_CATALOG_PATH);
      const client = new pg.Client({ connectionString: database.url });
      await client.connect();
      try {
        const { rows } = await client.query<{ products: string; untranslated: string }>(
          `select count(*) as products,
                  count(*) filter (where not exists (select 1 from product_translations t where t.product_id = p.id and t.locale = 'en')) as untranslated
             from products p`,
        );
        assert.deepEqual(rows[0], { products: String(demo.products.length), untranslated: '0' });
      } finally {
        await client.end();
      }
    } finally {
      await Promise.all(apps.map((app) => app.close()));
      await database.drop();
    }
  });
});
