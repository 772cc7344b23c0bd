import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as productListMigration from '../../src/store/migrations/0011-admin-product-list.js';
import { catalog, category, collection, product, variant } from '../support/catalog-builder.js';
import { ERP_TOKEN, adminClient, assertAdminError, withAdmin } from '../support/admin.js';
import { useTestApp } from '../support/test-app.js';

/** 30 products, a few of them drafts, filed in two categories and a collection. */
const PRODUCTS = Array.from({ length: 30 }, (_, i) => {
  const n = String(i).padStart(2, '0');
  return product(`item-${n}`, {
    status: i % 7 === 3 ? 'draft' : 'published',
    variants: [variant(`SKU-${n}-A`)],
    categories: i % 3 === 0 ? ['pantry'] : i % 3 === 1 ? ['sweets'] : [],
    ...(i % 5 === 0 && { collection: 'classics' }),
  });
});
PRODUCTS.push(product('secret-truffle', { status: 'draft', title: 'Winter truffle', titleIt: 'Tartufo invernale', variants: [variant('TRUFFLE-DRAFT')] }));
PRODUCTS.push(product('truffle-oil', { title: 'Truffle oil', variants: [variant('TRUFFLE-OIL')] }));

describe('admin product list', () => {
  const testApp = useTestApp(
    withAdmin({
      catalog: { ...catalog(PRODUCTS), categories: [category('pantry'), category('sweets', { parent: 'pantry' })], collections: [collection('classics')] },
    }),
  );
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(testApp)(...args);
  const handles = async (query: string) => {
    const response = await admin('GET', `/admin/v1/products?${query}`);
    assert.equal(response.statusCode, 200, response.body);
    return response.data.products.map((p: { handle: string }) => p.handle);
  };
  const remove = async (handle: string) =>
    (await testApp.app.inject({ method: 'DELETE', url: `/admin/v1/products/${handle}`, headers: { authorization: `Bearer ${ERP_TOKEN}` } })).statusCode;
  /** Every page of a query, following next_cursor; `between` runs after each page. */
  const allPages = async (query: string, between: (page: number) => Promise<void> = async () => {}) => {
    const seen: string[] = [];
    let cursor: string | null = null;
    for (let page = 0; page < 100; page++) {
      const response = await admin('GET', `/admin/v1/products?${query}${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(response.statusCode, 200, response.body);
      seen.push(...response.data.products.map((p: { handle: string }) => p.handle));
      cursor = response.data.next_cursor;
      if (cursor === null) return seen;
      await between(page);
    }
    assert.fail('the pages never ended');
  };

  it('lists every product, drafts included, in handle order as summaries, page after page', async () => {
    const stored = (await testApp.store.db.selectFrom('products').select('handle').orderBy('handle').execute()).map((row) => row.handle);
    assert.deepEqual(await allPages('limit=7'), stored);
    const first = (await admin('GET', '/admin/v1/products?limit=1&status=draft')).data.products[0];
    const whole = (await admin('GET', `/admin/v1/products/${first.handle}`)).data.product;
    assert.deepEqual(first, {
      id: whole.id,
      handle: whole.handle,
      version: whole.version,
      status: 'draft',
      weighted: false,
      title: whole.translations.en.title,
      thumbnail: null,
      categories: whole.categories,
      collection: whole.collection,
      skus: whole.variants.map((v: { sku: string }) => v.sku),
      created_at: whole.created_at,
      updated_at: whole.updated_at,
    });
  });

  it('pages to the end with no product twice and none missed while products are created, changed and deleted', async () => {
    const before = await allPages('limit=100');
    const created: string[] = [];
    const seen = await allPages('limit=4', async (page) => {
      if (page === 0) {
        // Before the cursor (not on these pages), after it (on a later page), one deleted, one changed.
        for (const handle of ['aaa-new', 'zzz-new']) {
          assert.equal((await admin('PUT', `/admin/v1/products/${handle}`, { status: 'draft', translations: { en: { title: handle } }, options: [], variants: [variant(handle.toUpperCase())] })).statusCode, 201);
          created.push(handle);
        }
        assert.equal(await remove('item-20'), 204);
        assert.equal((await admin('PATCH', '/admin/v1/products/item-25', { status: 'draft' })).statusCode, 200);
      }
    });
    assert.equal(new Set(seen).size, seen.length, 'no product twice');
    assert.deepEqual(seen, [...before.slice(0, 4), ...before.slice(4).filter((handle) => handle !== 'item-20'), 'zzz-new']);
    for (const handle of created) assert.equal(await remove(handle), 204);
    const { handle: _handle, ...item20 } = PRODUCTS[20]!;
    assert.equal((await admin('PUT', '/admin/v1/products/item-20', item20)).statusCode, 201);
    assert.equal((await admin('PATCH', '/admin/v1/products/item-25', { status: 'published' })).statusCode, 200);
  });

  it('filters by status, category (itself, not below), collection and updated_since', async () => {
    const drafts = PRODUCTS.filter((p) => p.status === 'draft').map((p) => p.handle).sort();
    assert.deepEqual(await handles('status=draft&limit=100'), drafts);
    assert.deepEqual(await handles('category=sweets&limit=100'), PRODUCTS.filter((p) => p.categories?.includes('sweets')).map((p) => p.handle).sort());
    assert.deepEqual(await handles('category=pantry&status=draft'), ['item-03', 'item-24']);
    assert.deepEqual(await handles('collection=classics&limit=100'), ['item-00', 'item-05', 'item-10', 'item-15', 'item-20', 'item-25']);
    assert.deepEqual(await handles('category=nowhere'), []);

    // A product's categories as a PATCH sets them are what the filter reads.
    assert.equal((await admin('PATCH', '/admin/v1/products/item-02', { categories: ['sweets', 'pantry'] })).statusCode, 200);
    assert.ok((await handles('category=sweets&limit=100')).includes('item-02'));
    assert.ok((await handles('category=pantry&limit=100')).includes('item-02'));
    assert.equal((await admin('PATCH', '/admin/v1/products/item-02', { categories: [] })).statusCode, 200);
    assert.ok(!(await handles('category=sweets&limit=100')).includes('item-02'));

    const since = (await admin('GET', '/admin/v1/products/item-02')).data.product.updated_at;
    assert.deepEqual(await handles(`updated_since=${encodeURIComponent(since)}`), ['item-02']);
  });

  it('finds a product, a draft too, by the exact SKU of any of its variants', async () => {
    assert.deepEqual(await handles('sku=TRUFFLE-DRAFT'), ['secret-truffle']);
    assert.deepEqual(await handles('sku=SKU-07-A'), ['item-07']);
    assert.deepEqual(await handles('sku=SKU-07'), [], 'exact, not a prefix');
    assert.deepEqual(await handles('sku=TRUFFLE-DRAFT&status=published'), []);
  });

  it('finds drafts and published products by text, in any locale, with the other filters', async () => {
    assert.deepEqual(await handles('q=truffle'), ['secret-truffle', 'truffle-oil']);
    assert.deepEqual(await handles('q=tartufo'), ['secret-truffle'], 'a draft by its Italian title');
    assert.deepEqual(await handles('q=winter%20truffle'), ['secret-truffle'], 'every word');
    assert.deepEqual(await handles('q=truffle&status=published'), ['truffle-oil']);
    assert.deepEqual(await handles('q=item&limit=100'), PRODUCTS.filter((p) => p.handle.startsWith('item-')).map((p) => p.handle).sort());
    const paged = await allPages('q=item&limit=4');
    assert.deepEqual(paged, PRODUCTS.filter((p) => p.handle.startsWith('item-')).map((p) => p.handle).sort());
  });

  it('files the products of a store migrated from before the list under their categories, as the writers do', async () => {
    const db = testApp.store.db as Parameters<typeof productListMigration.up>[0];
    const filed = () => testApp.store.db.selectFrom('product_categories').selectAll().orderBy('category_handle').orderBy('product_id').execute();
    const written = await filed();
    assert.ok(written.length >= 20, 'the seed filed its products');
    await productListMigration.down(db);
    await productListMigration.up(db);
    assert.deepEqual(await filed(), written);
  });

  it('refuses a bad limit, status, date, cursor, an empty query or an unknown parameter (400)', async () => {
    for (const query of ['limit=0', 'limit=101', 'status=archived', 'updated_since=yesterday', 'cursor=bm90IGEgaGFuZGxlIQ', 'q=%21%21', 'color=red', 'category=']) {
      assertAdminError(await admin('GET', `/admin/v1/products?${query}`), 400, 'INVALID_REQUEST');
    }
  });
});
