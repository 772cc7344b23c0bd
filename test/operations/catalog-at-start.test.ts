import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import Fastify from 'fastify';
import { CatalogTooLargeError, HeapBudget, readHeap } from '../../src/catalog/read-model/heap-budget.js';
import { CatalogReadModel } from '../../src/catalog/read-model/read-model.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';
import { importCatalog } from '../../src/catalog/store/import-catalog.js';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/database.js';
import { migrateToLatest } from '../../src/store/migrate.js';
import { catalog, product, tempDir, type TempDir } from '../support/catalog-builder.js';
import { isolatedServerEnv, type IsolatedServerEnv } from '../support/isolated-server-env.js';
import { sample } from '../support/prometheus.js';
import { startServerProcess } from '../support/server-process.js';

/** Enough products that the search index is built over many turns of the event loop after the catalog is served. */
const PRODUCTS = 10_000;
const products = Array.from({ length: PRODUCTS }, (_, i) => product(`ready-${i}`, { title: `Ready product ${i}` }));

describe('an instance is ready once its catalog is loaded and searchable, and refuses one its heap cannot hold', () => {
  /** A store of 2,500 products on in-memory SQLite, for the read model alone. */
  async function withStore(use: (store: ReturnType<typeof openStore>) => Promise<void>): Promise<void> {
    const store = openStore({ ...loadConfig({}), sqlitePath: ':memory:' });
    try {
      await migrateToLatest(store.db);
      await importCatalog(new CatalogWriter(store.db), catalog(products.slice(0, 2500)));
      await use(store);
    } finally {
      await store.close();
    }
  }

  it('a catalog too large for the heap is refused while it loads, naming the numbers and the setting', () =>
    withStore(async (store) => {
      // The process's real heap in use, against a limit of 16 MiB.
      const readModel = new CatalogReadModel(store.db, Fastify({ logger: false }).log, () => new HeapBudget(() => ({ ...readHeap(), limit: 16 * 2 ** 20 })));
      await assert.rejects(readModel.load(), (error: unknown) => {
        assert.ok(error instanceof CatalogTooLargeError);
        assert.match(error.message, /With the catalog's 2,500 served products .* heap limit of 16 MiB; .* NODE_OPTIONS=--max-old-space-size=\d+/);
        return true;
      });
      assert.equal(readModel.loaded, false);
    }));

  it('the read model is loaded but not ready while the index is built, and counts the reads that wait for it', () =>
    withStore(async (store) => {
      const readModel = new CatalogReadModel(store.db, Fastify({ logger: false }).log);
      await readModel.load();
      // load() hands the catalog over after indexing its first page; the rest is indexed on later turns.
      assert.equal(readModel.loaded, true);
      assert.equal(readModel.ready, false);
      assert.ok(readModel.unindexedProducts > 0, `${readModel.unindexedProducts} products left to index`);
      assert.equal(readModel.searchesWaited, 0);

      await readModel.whenSearchable();
      assert.equal(readModel.searchesWaited, 1);
      assert.equal(readModel.ready, true);
      assert.equal(readModel.unindexedProducts, 0);
      await readModel.whenSearchable();
      assert.equal(readModel.searchesWaited, 1, 'a searchable catalog makes no read wait');
    }));

  describe('a server process starting on 10,000 products', () => {
    let isolated: IsolatedServerEnv;
    let dir: TempDir;

    before(async () => {
      isolated = await isolatedServerEnv();
      dir = await tempDir();
      const seed = await dir.writeJson('catalog.json', catalog(products));
      // The first start imports the seed; the test starts the second, on a store that holds the catalog.
      const seeding = await startServerProcess({ ...isolated.env, CATALOG_SEED: seed });
      assert.equal(await seeding.stop(), 0);
    });
    after(async () => {
      await isolated.cleanup();
      await dir.remove();
    });

    it('answers /readyz 503 naming read_model until the index is built; a search right after 200 does not wait', async () => {
      const server = await startServerProcess({ ...isolated.env, CATALOG_SEED: 'none' }, { until: 'listening' });
      try {
        const answers: { status: number; failed: string[] }[] = [];
        for (;;) {
          const response = await fetch(`${server.url}/readyz`);
          const body = (await response.json()) as { failed: string[] };
          answers.push({ status: response.status, failed: body.failed });
          if (response.status === 200) break;
        }
        const search = await fetch(`${server.url}/public/v1/products?q=ready&limit=5`);
        assert.equal(search.status, 200);
        assert.equal(((await search.json()) as { products: unknown[] }).products.length, 5);

        const notReady = answers.slice(0, -1);
        for (const answer of notReady) assert.deepEqual(answer, { status: 503, failed: ['read_model'] });
        // The index is built over many turns of the event loop, which the rest of the start
        // shares: it may be done before the server listens, or before the first /readyz
        // arrives, and then no 503 can be seen. Either way, the process logs its first 200
        // to /readyz only after it logged the index built.
        await server.waitForLog((entry) => entry.msg === 'catalog search index built');
        const lines = server.output().split('\n');
        const indexBuilt = lines.findIndex((line) => line.includes('"catalog search index built"'));
        const firstReady = lines.findIndex((line) => line.includes('"url":"/readyz"') && line.includes('"statusCode":200'));
        assert.ok(indexBuilt >= 0 && firstReady > indexBuilt, `/readyz answered 200 while the index was still being built:\n${lines.join('\n')}`);
        const metrics = await (await fetch(`${server.url}/metrics`)).text();
        assert.equal(sample(metrics, 'vetrina_catalog_unindexed_products'), 0);
        assert.equal(sample(metrics, 'vetrina_catalog_index_waits_total'), 0, 'no read after /readyz answered 200 waited for the index');
        assert.equal(sample(metrics, 'vetrina_catalog_products'), PRODUCTS);
        assert.ok(sample(metrics, 'vetrina_heap_limit_bytes')! > sample(metrics, 'nodejs_heap_size_used_bytes')!, 'the heap limit is above the heap in use');
        const ready = await server.waitForLog((entry) => entry.msg === 'Vetrina is ready');
        // What the server set, as each setter answers it: a setter not called sets nothing.
        assert.deepEqual(ready.v8Flags, [`--heap-growing-percent=${loadConfig({}).heapGrowthPercent}`, '--optimize-for-size']);
      } finally {
        assert.equal(await server.stop(), 0);
      }
    });
  });
});
