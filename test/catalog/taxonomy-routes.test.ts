import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { adminClient, withAdmin } from '../support/admin.js';
import { assertProblem, getOk } from '../support/catalog-assertions.js';
import { product } from '../support/catalog-builder.js';
import { TAXONOMY_CATALOG } from '../support/taxonomy-catalog.js';
import { useTestApp } from '../support/test-app.js';

const CATEGORIES = '/public/v1/categories';
const COLLECTIONS = '/public/v1/collections';

/** Per handle, its product_count. */
const countsOf = (entries: { handle: string; product_count: number }[]) => Object.fromEntries(entries.map((entry) => [entry.handle, entry.product_count]));

describe('GET /public/v1/categories and /public/v1/collections', () => {
  const testApp = useTestApp(withAdmin({ catalog: TAXONOMY_CATALOG }));
  const get = (url: string) => getOk(testApp.client, url);
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(testApp)(...args);

  it('lists the tree in tree order, parents before children, with parent, depth and English titles by default', async () => {
    const response = await testApp.client.get(CATEGORIES);
    assert.equal(response.statusCode, 200, response.body);
    const body = response.data;
    assert.deepEqual(
      body.categories.map(({ handle, title, parent, depth }: any) => ({ handle, title, parent, depth })),
      [
        { handle: 'coffee', title: 'Coffee', parent: null, depth: 0 },
        { handle: 'espresso', title: 'Espresso', parent: 'coffee', depth: 1 },
        { handle: 'pantry', title: 'Pantry', parent: null, depth: 0 },
        { handle: 'oils', title: 'Oils', parent: 'pantry', depth: 1 },
        { handle: 'olive-oils', title: 'Olive oils', parent: 'oils', depth: 2 },
        { handle: 'honey', title: 'Honey', parent: 'pantry', depth: 1 },
        { handle: 'gifts', title: 'Gifts', parent: null, depth: 0 },
      ],
    );
    assert.deepEqual(body.context, { locale: 'en', country: 'IT', currency: 'EUR', region_id: 'reg_it' });
    assert.equal(response.headers['x-request-id'], body.request_id);
  });

  it('titles categories and collections in the requested locale, falling back to English where a title is missing', async () => {
    const categories = await get(`${CATEGORIES}?locale=IT`);
    assert.deepEqual(
      categories.categories.map((entry: any) => entry.title),
      ['Caffè', 'Espresso', 'Dispensa', 'Oli', "Oli d'oliva", 'Miele', 'Regali'],
    );
    assert.equal(categories.context.locale, 'it');
    const collections = await get(`${COLLECTIONS}?locale=it`);
    assert.deepEqual(
      collections.collections.map(({ handle, title }: any) => ({ handle, title })),
      [
        { handle: 'summer', title: 'Estate' },
        { handle: 'classics', title: 'Classics' },
        { handle: 'empty-shelf', title: 'empty shelf' },
      ],
    );
  });

  it('counts the served products of a category and of every category below it, each product once, drafts never', async () => {
    const { categories } = await get(CATEGORIES);
    // moka-blend is in coffee and espresso, tuscan-olive-oil in oils and olive-oils: each counts once above them.
    assert.deepEqual(countsOf(categories), { coffee: 2, espresso: 2, pantry: 3, oils: 2, 'olive-oils': 2, honey: 1, gifts: 0 });
    const { collections } = await get(COLLECTIONS);
    assert.deepEqual(countsOf(collections), { summer: 2, classics: 2, 'empty-shelf': 0 });
  });

  it('counts per market with available: purchasable with a price there, or (false) not', async () => {
    const expected: [string, Record<string, number>, Record<string, number>][] = [
      // sold-out-oil is out of stock; acacia-honey is on backorder, so purchasable.
      ['country=IT&available=true', { coffee: 2, espresso: 2, pantry: 2, oils: 1, 'olive-oils': 1, honey: 1, gifts: 0 }, { summer: 1, classics: 2, 'empty-shelf': 0 }],
      // moka-blend and acacia-honey have no price in GBP.
      ['country=GB&available=true', { coffee: 1, espresso: 1, pantry: 1, oils: 1, 'olive-oils': 1, honey: 0, gifts: 0 }, { summer: 1, classics: 1, 'empty-shelf': 0 }],
      ['country=GB&available=false', { coffee: 1, espresso: 1, pantry: 2, oils: 1, 'olive-oils': 1, honey: 1, gifts: 0 }, { summer: 1, classics: 1, 'empty-shelf': 0 }],
      ['country=US&available=true', { coffee: 0, espresso: 0, pantry: 0, oils: 0, 'olive-oils': 0, honey: 0, gifts: 0 }, { summer: 0, classics: 0, 'empty-shelf': 0 }],
      // Without available every served product counts, priced in the market or not.
      ['country=US', { coffee: 2, espresso: 2, pantry: 3, oils: 2, 'olive-oils': 2, honey: 1, gifts: 0 }, { summer: 2, classics: 2, 'empty-shelf': 0 }],
    ];
    for (const [query, categories, collections] of expected) {
      const categoryList = await get(`${CATEGORIES}?${query}`);
      assert.deepEqual(countsOf(categoryList.categories), categories, query);
      const collectionList = await get(`${COLLECTIONS}?${query}`);
      assert.deepEqual(countsOf(collectionList.collections), collections, query);
      assert.deepEqual(collectionList.context, categoryList.context, query);
    }
  });

  it('gives every category and collection the count of the product list filtered by it, in every market', async () => {
    for (const market of ['', 'country=GB', 'country=US&locale=it', 'country=DE']) {
      for (const available of ['', '&available=true', '&available=false']) {
        const query = `${market}${available}`;
        const { categories } = await get(`${CATEGORIES}?${query}`);
        const { collections } = await get(`${COLLECTIONS}?${query}`);
        for (const [parameter, entries] of [['category', categories], ['collection', collections]] as const) {
          for (const { handle, product_count } of entries) {
            const list = await get(`/public/v1/products?${parameter}=${handle}&${query}`);
            assert.equal(product_count, list.count, `${parameter}=${handle}&${query}`);
          }
        }
      }
    }
  });

  it('ignores unknown query parameters: the same answer and ETag', async () => {
    const plain = await testApp.client.get(`${CATEGORIES}?country=GB`);
    const extra = await testApp.client.get(`${CATEGORIES}?country=GB&colour=blue&limit=1`);
    assert.equal(extra.statusCode, 200);
    assert.equal(extra.headers.etag, plain.headers.etag);
    assert.deepEqual(extra.data.categories, plain.data.categories);
  });

  for (const url of [CATEGORIES, COLLECTIONS]) {
    it(`${url}: a strong ETag, Cache-Control, 304 to If-None-Match, and another ETag per market and available`, async () => {
      const first = await testApp.client.get(url);
      assert.match(String(first.headers.etag), /^"[A-Za-z0-9_-]+"$/);
      assert.match(String(first.headers['cache-control']), /^public, max-age=\d+/);
      assert.match(String(first.headers.vary), /Accept-Encoding/i);
      const again = await testApp.app.inject({ url, headers: { 'if-none-match': String(first.headers.etag) } });
      assert.equal(again.statusCode, 304);
      assert.equal(again.body, '');
      assert.equal(again.headers.etag, first.headers.etag);
      const tags = await Promise.all([`${url}?country=GB`, `${url}?locale=it`, `${url}?available=true`].map(async (other) => (await testApp.client.get(other)).headers.etag));
      assert.equal(new Set([first.headers.etag, ...tags]).size, 4, tags.join(' '));
    });

    it(`${url}: 400 REGION_NOT_FOUND for an invalid or unserved market, 400 INVALID_QUERY for available=maybe, never cached`, async () => {
      for (const query of ['country=ZZ', 'country=GB&currency=EUR', 'locale=fr', 'country=ITA', 'currency=EURO']) {
        const response = await testApp.client.get(`${url}?${query}`);
        assertProblem(response, 400, 'REGION_NOT_FOUND');
        assert.equal(response.headers['cache-control'], 'no-store', query);
      }
      const maybe = await testApp.client.get(`${url}?available=maybe`);
      assertProblem(maybe, 400, 'INVALID_QUERY');
      assert.match(maybe.data.error.message, /available/);
      assert.match(maybe.data.error.hint, /available is true or false/);
    });
  }

  it('a stock change moves the available counts and their ETag, and leaves the counts without available alone', async () => {
    const url = `${CATEGORIES}?available=true`;
    const before = await testApp.client.get(url);
    const unfiltered = await testApp.client.get(CATEGORIES);
    const collections = await testApp.client.get(`${COLLECTIONS}?available=true`);
    const tuscan = await testApp.variantId('TUSCAN');

    assert.equal((await admin('PATCH', `/admin/v1/variants/${tuscan}`, { inventory_quantity: 0 })).statusCode, 200);
    const soldOut = await testApp.client.request({ method: 'GET', url, headers: { 'if-none-match': String(before.headers.etag) } });
    assert.equal(soldOut.statusCode, 200, 'the old ETag no longer matches');
    assert.notEqual(soldOut.headers.etag, before.headers.etag);
    assert.deepEqual(countsOf(soldOut.data.categories), { coffee: 2, espresso: 2, pantry: 1, oils: 0, 'olive-oils': 0, honey: 1, gifts: 0 });
    assert.deepEqual(countsOf((await get(`${COLLECTIONS}?available=true`)).collections), { summer: 0, classics: 2, 'empty-shelf': 0 });
    const stillAll = await testApp.app.inject({ url: CATEGORIES, headers: { 'if-none-match': String(unfiltered.headers.etag) } });
    assert.equal(stillAll.statusCode, 304, 'without available every served product counts, in stock or not');
    assert.equal((await get(`/public/v1/products?category=oils&available=true`)).count, 0);

    assert.equal((await admin('PATCH', `/admin/v1/variants/${tuscan}`, { inventory_quantity: 4 })).statusCode, 200);
    const restocked = await testApp.client.get(url);
    assert.equal(restocked.headers.etag, before.headers.etag, 'the same counts are the same text, so the same ETag');
    assert.equal((await testApp.client.get(`${COLLECTIONS}?available=true`)).headers.etag, collections.headers.etag);
  });

  it('a price change in one market moves that market\'s available counts only when a product becomes buyable or not there', async () => {
    const gb = `${CATEGORIES}?country=GB&available=true`;
    const before = await testApp.client.get(gb);
    const beans = await testApp.variantId('BEANS');
    const moka = await testApp.variantId('MOKA-BLEND');

    assert.equal((await admin('PATCH', `/admin/v1/variants/${beans}`, { prices: [{ currency: 'GBP', amount: 1100 }] })).statusCode, 200);
    const repriced = await testApp.app.inject({ url: gb, headers: { 'if-none-match': String(before.headers.etag) } });
    assert.equal(repriced.statusCode, 304, 'a new price that leaves every product buyable leaves the counts and their ETag');

    assert.equal((await admin('PATCH', `/admin/v1/variants/${moka}`, { prices: [{ currency: 'GBP', amount: 900 }] })).statusCode, 200);
    const priced = await testApp.client.get(gb);
    assert.notEqual(priced.headers.etag, before.headers.etag);
    assert.deepEqual(countsOf(priced.data.categories), { ...countsOf(before.data.categories), coffee: 2, espresso: 2 });
    assert.equal((await get(`/public/v1/products?category=coffee&country=GB&available=true`)).count, 2);

    assert.equal((await admin('PATCH', `/admin/v1/variants/${moka}`, { prices: [{ currency: 'GBP', amount: null }] })).statusCode, 200);
    assert.equal((await testApp.client.get(gb)).headers.etag, before.headers.etag);
  });

  it('a product leaving the catalog leaves every count it was in, with or without available', async () => {
    const before = await testApp.client.get(CATEGORIES);
    assert.equal((await admin('PATCH', '/admin/v1/products/moka-blend', { status: 'draft' })).statusCode, 200);
    const after = await testApp.client.get(CATEGORIES);
    assert.notEqual(after.headers.etag, before.headers.etag);
    assert.deepEqual(countsOf(after.data.categories), { ...countsOf(before.data.categories), coffee: 1, espresso: 1 });
    assert.deepEqual(countsOf((await get(COLLECTIONS)).collections), { summer: 2, classics: 1, 'empty-shelf': 0 });
    assert.equal((await admin('PATCH', '/admin/v1/products/moka-blend', { status: 'published' })).statusCode, 200);
    assert.equal((await testApp.client.get(CATEGORIES)).headers.etag, before.headers.etag);
  });
});

describe('a catalog without a taxonomy', () => {
  const testApp = useTestApp({ catalog: [product('plain-product', { categories: [] })] });

  it('lists no categories and no collections, in the resolved market', async () => {
    for (const [url, list] of [[CATEGORIES, 'categories'], [COLLECTIONS, 'collections']] as const) {
      const body = await getOk(testApp.client, `${url}?country=GB&available=true`);
      assert.deepEqual(body[list], []);
      assert.deepEqual(body.context, { locale: 'en', country: 'GB', currency: 'GBP', region_id: 'reg_gb' });
    }
  });
});
