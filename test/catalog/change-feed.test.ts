import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeDetailsAfter, readCatalogVersion } from '../../src/catalog/store/change-log.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';
import { putRegion } from '../../src/catalog/store/write/regions.js';
import { adminClient, ERP_TOKEN, withAdmin } from '../support/admin.js';
import { product, variant } from '../support/catalog-builder.js';
import { useTestApp, type TestApp } from '../support/test-app.js';

const CATALOG = [
  product('olive-oil', { variants: [variant('OIL', { prices: [{ currency: 'EUR', amount: 1000 }, { currency: 'USD', amount: 1200 }] })] }),
  product('honey'),
  product('salt', { status: 'draft' }),
];

const feed = async (testApp: TestApp, query: string, headers: Record<string, string> = {}) => testApp.client.request({ method: 'GET', url: `/public/v1/changes?${query}`, headers });

/** Follows the feed from `since` with pages of `limit` until it has no more: every entry, and the cursor to follow from next. */
async function walk(testApp: TestApp, since: string, limit: number, market = ''): Promise<{ entries: any[]; cursor: string }> {
  const entries: any[] = [];
  let cursor = since;
  for (;;) {
    const response = await feed(testApp, `since=${cursor}&limit=${limit}${market}`);
    assert.equal(response.statusCode, 200, response.body);
    entries.push(...response.data.changes);
    assert.notEqual(response.data.next_cursor, undefined);
    cursor = response.data.next_cursor;
    if (!response.data.has_more) return { entries, cursor };
  }
}

describe('GET /public/v1/changes: the public change feed', () => {
  const testApp = useTestApp(withAdmin({ catalog: CATALOG }));
  const admin = (method: string, url: string, body?: unknown) =>
    method === 'DELETE'
      ? testApp.app.inject({ method, url, headers: { authorization: `Bearer ${ERP_TOKEN}` } })
      : adminClient(testApp)(method, url, body);
  const now = async () => {
    const response = await feed(testApp, '');
    assert.equal(response.statusCode, 200, response.body);
    assert.deepEqual(response.data.changes, []);
    assert.equal(response.data.has_more, false);
    return response.data.next_cursor as string;
  };

  it('answers the cursor of now without since, then every change once and in order, whatever the page size, with what changed', async () => {
    const start = await now();
    const oil = await testApp.variantId('OIL');
    const honey = await testApp.variantId('HONEY');
    const steps: [string, string, unknown][] = [
      ['PATCH', `/admin/v1/variants/${oil}`, { prices: [{ currency: 'EUR', amount: 1100 }] }],
      ['PATCH', `/admin/v1/variants/${honey}`, { manage_inventory: true, inventory_quantity: 0 }],
      ['PATCH', '/admin/v1/products/honey', { translations: { en: { title: 'Wild honey' } } }],
      ['PATCH', '/admin/v1/products/salt', { status: 'published' }],
      ['PATCH', '/admin/v1/products/olive-oil', { status: 'draft' }],
      ['PUT', '/admin/v1/products/pepper', { ...product('pepper'), handle: undefined }],
      ['DELETE', '/admin/v1/products/honey', undefined],
      // A draft's changes are not public: nothing is listed for them.
      ['PATCH', `/admin/v1/variants/${oil}`, { prices: [{ currency: 'EUR', amount: 1300 }] }],
    ];
    for (const [method, url, body] of steps) {
      const response = await admin(method, url, body);
      assert.ok(response.statusCode < 300, response.body);
    }
    const expected = [
      ['olive-oil', ['price']],
      ['honey', ['availability']],
      ['honey', ['content']],
      ['salt', ['published']],
      ['olive-oil', ['withdrawn']],
      ['pepper', ['published']],
      ['honey', ['withdrawn']],
    ];
    for (const limit of [1, 2, 20]) {
      const { entries, cursor } = await walk(testApp, start, limit);
      assert.deepEqual(entries.map((entry) => [entry.handle, entry.kinds]), expected, `pages of ${limit}`);
      const versions = entries.map((entry) => entry.catalog_version);
      assert.deepEqual(versions, [...versions].sort((a, b) => a - b));
      assert.equal(new Set(entries.map((entry) => entry.cursor)).size, entries.length);
      assert.equal(cursor, await now(), 'the walk ends at the cursor of now');
    }
    const { entries } = await walk(testApp, start, 20);
    // Each product as served now: olive oil is a draft and honey deleted, so neither is served.
    assert.deepEqual(entries.map((entry) => entry.product?.title ?? null), [null, null, null, 'salt', null, 'pepper', null]);
    // Resuming after any entry gives exactly the entries after it.
    for (const [index, entry] of entries.entries()) {
      assert.deepEqual((await walk(testApp, entry.cursor, 3)).entries, entries.slice(index + 1));
    }
  });

  it('renders each change in the market asked for: the same change with two prices', async () => {
    const start = await now();
    const oil = await testApp.variantId('OIL');
    await admin('PATCH', '/admin/v1/products/olive-oil', { status: 'published' });
    assert.equal((await admin('PATCH', `/admin/v1/variants/${oil}`, { prices: [{ currency: 'USD', amount: 1500 }] })).statusCode, 200);
    const italy = (await walk(testApp, start, 20)).entries.at(-1);
    const us = (await walk(testApp, start, 20, '&country=US')).entries.at(-1);
    assert.deepEqual([italy.kinds, us.kinds], [['price'], ['price']]);
    assert.equal(italy.cursor, us.cursor);
    assert.deepEqual(italy.product.variants[0].price, { amount: 13, currency: 'EUR' });
    assert.deepEqual(us.product.variants[0].price, { amount: 15, currency: 'USD' });
  });

  it('answers 304 to If-None-Match while the page is unchanged, and a new tag once a change joins it', async () => {
    const start = await now();
    const first = await feed(testApp, `since=${start}`);
    assert.equal(first.statusCode, 200);
    const etag = first.headers.etag as string;
    assert.ok(etag);
    const unchanged = await testApp.app.inject({ method: 'GET', url: `/public/v1/changes?since=${start}`, headers: { 'if-none-match': etag } });
    assert.equal(unchanged.statusCode, 304);
    await admin('PATCH', '/admin/v1/products/salt', { translations: { en: { title: 'Sea salt' } } });
    const changed = await feed(testApp, `since=${start}`, { 'if-none-match': etag });
    assert.equal(changed.statusCode, 200);
    assert.notEqual(changed.headers.etag, etag);
    assert.deepEqual(changed.data.changes.map((entry: any) => entry.handle), ['salt']);
  });

  it('refuses a cursor it did not write (400) and an invalid market (400)', async () => {
    for (const since of ['abc', '1.x', '-1', '1'.repeat(40)]) {
      const response = await feed(testApp, `since=${encodeURIComponent(since)}`);
      assert.equal(response.statusCode, 400, since);
      assert.equal(response.data.error.code, 'INVALID_QUERY');
      assert.match(response.data.error.hint, /GET \/public\/v1\/changes/);
    }
    assert.equal((await feed(testApp, 'country=ZZ')).data.error.code, 'REGION_NOT_FOUND');
    assert.equal((await feed(testApp, 'limit=21')).data.error.code, 'INVALID_QUERY');
  });

  it('answers CHANGES_EXPIRED (410) with how to resynchronise for a cursor older than the log keeps', async () => {
    const start = await now();
    await admin('PATCH', '/admin/v1/products/salt', { translations: { en: { title: 'Salt' } } });
    await admin('PATCH', '/admin/v1/products/salt', { translations: { en: { title: 'Rock salt' } } });
    // The log pruned up to the first change after the cursor.
    await testApp.store.db.deleteFrom('catalog_changes').where('seq', '<=', Number(start) + 1).execute();
    const response = await feed(testApp, `since=${start}`);
    assert.equal(response.statusCode, 410, response.body);
    assert.equal(response.data.error.code, 'CHANGES_EXPIRED');
    assert.match(response.data.error.hint, /without since/);
    assert.equal(response.headers['cache-control'], 'no-store');
    // The cursor of now works again.
    assert.equal((await feed(testApp, `since=${await now()}`)).statusCode, 200);
  });
});

describe('the change log: details and retention', () => {
  const testApp = useTestApp({ catalog: CATALOG });

  it('records what each change did to each product in the change itself; a change to the regions alone lists no product', async () => {
    const writer = new CatalogWriter(testApp.store.db);
    const before = await readCatalogVersion(testApp.store.db);
    await writer.write('ops', async (catalog) => {
      await putRegion(catalog, { id: 'reg_ch', name: 'Switzerland', currency: 'CHF', countries: ['CH'] });
      return { result: undefined, regions: true, audit: [] };
    });
    const logged = await changeDetailsAfter(testApp.store.db, before, 10);
    assert.deepEqual(logged?.map((change) => change.details), [[]]);
  });

  it('reads details up to a budget of their bytes, always the first change however large, and the rest on the next read', async () => {
    const { db } = testApp.store;
    const writer = new CatalogWriter(db);
    const before = await readCatalogVersion(db);
    for (const [name, country] of [['Alps', 'LI'], ['Andes', 'PE'], ['Atlas', 'MA']] as const) {
      await writer.write('ops', async (catalog) => {
        await putRegion(catalog, { id: `reg_${name.toLowerCase()}`, name, currency: 'CHF', countries: [country] });
        return { result: undefined, regions: true, audit: [] };
      });
    }
    const seqs = async (after: number, maxBytes: number) => (await changeDetailsAfter(db, after, 10, undefined, maxBytes))!.map((change) => change.seq);
    // Each of these changes' details is `[]`: 2 bytes.
    assert.deepEqual(await seqs(before, 1), [before + 1], 'the first change, though over the budget');
    assert.deepEqual(await seqs(before, 4), [before + 1, before + 2]);
    assert.deepEqual(await seqs(before + 2, 4), [before + 3], 'the rest, read next');
    assert.deepEqual(await seqs(before, 6), [before + 1, before + 2, before + 3]);
  });

  it('prunes the log by CHANGE_FEED_RETENTION_HOURS as changes are recorded', async () => {
    const db = testApp.store.db;
    const later = (hours: number) => () => new Date(Date.now() + hours * 3_600_000);
    const touch = (writer: CatalogWriter) =>
      writer.write('ops', async () => ({ result: undefined, audit: [{ action: 'touch', targetType: 'catalog', targetId: 'catalog', versionBefore: null, versionAfter: null, changes: {} }] }));
    const first = (await touch(new CatalogWriter(db))).version;
    // As if the webhook dispatcher had consumed it: the log keeps what a durable reader has not (docs/decisions.md).
    await db.updateTable('change_log_readers').set({ seq: first }).where('seq', '<', first).execute();
    // Pruning runs once every hundred changes: write up to the next one two hours later with a retention of one hour.
    const writer = new CatalogWriter(db, { clock: later(2), changeLogRetentionHours: 1 });
    while ((await touch(writer)).version % 100 !== 0);
    assert.equal(await changeDetailsAfter(db, first - 1, 1), undefined, 'the change older than an hour is gone');
    assert.notEqual(await changeDetailsAfter(db, first, 1), undefined, 'the changes of the last hour are kept');
  });
});

describe('change details: what the write protocol records of each change (the webhooks read them)', () => {
  const testApp = useTestApp(withAdmin({ catalog: CATALOG }));
  const details = async (after: number) => (await changeDetailsAfter(testApp.store.db, after, 10))!.map((change) => change.details);

  it('records prices by region or currency with old and new, availability as the public API renders it, and nothing for a write that changed nothing', async () => {
    const admin = adminClient(testApp);
    const oil = await testApp.variantId('OIL');
    const before = await readCatalogVersion(testApp.store.db);
    await admin('PATCH', `/admin/v1/variants/${oil}`, { prices: [{ currency: 'EUR', amount: 1100 }, { currency: 'EUR', region_id: 'reg_it', amount: 990 }, { currency: 'USD', amount: null }] });
    await admin('PATCH', `/admin/v1/variants/${oil}`, { manage_inventory: true, inventory_quantity: 0, allow_backorder: true });
    await admin('PATCH', '/admin/v1/products/olive-oil', { status: 'published' });
    const [priced, stocked, unchanged] = await details(before);
    const { prices, ...detail } = priced![0]!;
    assert.deepEqual(detail, { product_id: detail.product_id, handle: 'olive-oil', kinds: ['price'], served: true, availability: [] });
    assert.deepEqual(
      prices.map((price) => [price.variant_id, price.sku, price.key, price.old, price.new]).sort(),
      [
        [oil, 'OIL', 'EUR', 1000, 1100],
        [oil, 'OIL', 'USD', 1200, null],
        [oil, 'OIL', 'reg_it', null, 990],
      ],
    );
    assert.deepEqual(stocked![0]!.kinds, ['availability']);
    assert.deepEqual(stocked![0]!.availability, [
      { variant_id: oil, sku: 'OIL', old: { purchasable: true, status: 'in_stock' }, new: { purchasable: true, status: 'backorder' } },
    ]);
    assert.deepEqual(unchanged, [], 'publishing a published product changes nothing served');
  });

  it('records a product created, a draft created and a product deleted as wholes: kinds and servedness, no prices or availability', async () => {
    const admin = adminClient(testApp);
    const before = await readCatalogVersion(testApp.store.db);
    await admin('PUT', '/admin/v1/products/pepper', { ...product('pepper'), handle: undefined });
    await admin('PUT', '/admin/v1/products/thyme', { ...product('thyme', { status: 'draft' }), handle: undefined });
    const deleted = await testApp.app.inject({ method: 'DELETE', url: '/admin/v1/products/pepper', headers: { authorization: `Bearer ${ERP_TOKEN}` } });
    assert.equal(deleted.statusCode, 204);
    const summary = (await details(before)).map((change) => change.map(({ handle, kinds, served, prices, availability }) => ({ handle, kinds, served, prices, availability })));
    assert.deepEqual(summary, [
      [{ handle: 'pepper', kinds: ['created', 'published'], served: true, prices: [], availability: [] }],
      [{ handle: 'thyme', kinds: ['created'], served: false, prices: [], availability: [] }],
      [{ handle: 'pepper', kinds: ['withdrawn', 'deleted'], served: false, prices: [], availability: [] }],
    ]);
  });
});
