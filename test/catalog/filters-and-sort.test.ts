import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CatalogFile, CatalogFileCategory, CatalogFileProduct, CatalogFileVariant } from '../../src/catalog/file/catalog-file-schema.js';
import { importCatalog } from '../../src/catalog/store/import-catalog.js';
import { assertProblem, duplicates, getOk, walkCursor, walkOffset } from '../support/catalog-assertions.js';
import { catalog, day, product, REGIONS, variant } from '../support/catalog-builder.js';
import { McpTestClient } from '../support/mcp-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';

/**
 * docs/decisions.md, Filters and sort: every filter and sort alone and combined with q,
 * the market and both kinds of paging, checked against an oracle written from the rules
 * over the catalog file itself.
 */

const CATEGORIES: CatalogFileCategory[] = [
  { handle: 'coffee', titles: { en: 'Coffee', it: 'Caffè' } },
  { handle: 'espresso', parent: 'coffee', titles: { en: 'Espresso' } },
  { handle: 'filter-coffee', parent: 'coffee', titles: { en: 'Filter coffee', it: 'Caffè filtro' } },
  { handle: 'pantry', titles: { en: 'Pantry', it: 'Dispensa' } },
  { handle: 'oils', parent: 'pantry', titles: { en: 'Oils', it: 'Oli' } },
  { handle: 'olive-oils', parent: 'oils', titles: { en: 'Olive oils', it: "Oli d'oliva" } },
  { handle: 'tea', titles: { en: 'Tea', it: 'Tè' } },
];

const TITLES = [
  'Bold Roast Espresso', 'Élan Olive Oil', 'apple tea', 'Zesty Lemon Oil', 'Crema Roast', 'bold roast espresso',
  'Olive Oil Classic', 'Dark Roast Filter', 'Earl Grey Tea', 'Mild Roast', 'Oil of Sage', 'Green Tea',
  'Amber Roast', 'Truffle Oil', 'Espresso Forte', 'Ölmühle Oil', 'Chai Tea', 'Roast Sampler',
  'Herbal Tea', 'Nutty Oil', 'Breakfast Roast', 'Garlic Oil', 'Mint Tea', 'Decaf Roast',
];
const CATEGORY_CYCLE = [['espresso'], ['filter-coffee'], ['coffee'], ['olive-oils'], ['oils'], ['tea'], ['espresso', 'olive-oils'], []];
const TAG_CYCLE = [['organic'], ['gift'], ['organic', 'gift'], [], ['fair-trade']];

function fixtureVariant(i: number, v: number): CatalogFileVariant {
  const amount = 500 + ((i * 37) % 20) * 100 + v * 250;
  const prices =
    i % 7 === 3
      ? [{ currency: 'GBP', amount }]
      : [{ currency: 'EUR', amount }, ...(i % 4 === 0 ? [{ currency: 'EUR', amount: amount - 50, region: 'reg_eu' }] : []), { currency: 'GBP', amount: amount + 100 }];
  const outOfStock = i % 6 === 5 || (i % 6 === 4 && v === 0);
  return variant(`SKU-${i}-${v}`, {
    prices,
    manage_inventory: outOfStock,
    inventory_quantity: 0,
    allow_backorder: i % 6 === 4 && v === 1,
  });
}

const PRODUCTS: CatalogFileProduct[] = TITLES.map((title, i) => {
  const variants = [fixtureVariant(i, 0), fixtureVariant(i, 1)];
  return product(`item-${String(i).padStart(2, '0')}`, {
    title,
    ...(i % 2 === 0 && { titleIt: `${['Zucchero', 'Aceto', 'Bacca'][i % 3]} ${title}` }),
    created_at: day(1 + (i % 10)),
    categories: CATEGORY_CYCLE[i % CATEGORY_CYCLE.length]!,
    ...(i % 3 !== 2 && { collection: i % 3 === 0 ? 'classics' : 'summer' }),
    tags: TAG_CYCLE[i % TAG_CYCLE.length]!,
    options: [{ name: 'Size', values: ['Small', 'Large'] }],
    variants: variants.map((v, n) => ({ ...v, options: [n === 0 ? 'Small' : 'Large'] })),
  });
});

const FIXTURE: CatalogFile = {
  ...catalog(PRODUCTS),
  categories: CATEGORIES,
  collections: [
    { handle: 'classics', titles: { en: 'Classics', it: 'Classici' } },
    { handle: 'summer', titles: { en: 'Summer' } },
  ],
};

// The oracle: the documented rules, applied to the file.

type Market = { country: string; regionId: string; currency: string; locale: 'en' | 'it' };
const marketOf = (params: URLSearchParams): Market => {
  const country = params.get('country') ?? 'IT';
  const region = REGIONS.find((r) => r.countries.includes(country))!;
  return { country, regionId: region.id, currency: region.currency, locale: (params.get('locale') ?? 'en') as 'en' | 'it' };
};
const priceIn = (v: CatalogFileVariant, m: Market) =>
  (v.prices.find((p) => p.region === m.regionId) ?? v.prices.find((p) => p.region === undefined && p.currency === m.currency))?.amount ?? null;
const purchasable = (v: CatalogFileVariant) => !v.manage_inventory || v.inventory_quantity > 0 || v.allow_backorder;
const subtree = (handle: string): string[] => [handle, ...CATEGORIES.filter((c) => c.parent === handle).flatMap((c) => subtree(c.handle))];
const fold = (text: string) =>
  text.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean).join(' ').slice(0, 64);
const minor = (major: number, currency: string) => Math.round(major * (currency === 'JPY' ? 1 : 100));

function oracleFilter(params: URLSearchParams, m: Market): (p: CatalogFileProduct) => boolean {
  const categories = params.getAll('category').flatMap(subtree);
  const collections = params.getAll('collection');
  const tags = params.getAll('tag');
  const available = params.get('available');
  const low = params.has('price_min') ? minor(Number(params.get('price_min')), m.currency) : -Infinity;
  const high = params.has('price_max') ? minor(Number(params.get('price_max')), m.currency) : Infinity;
  const priced = params.has('price_min') || params.has('price_max');
  return (p) =>
    (categories.length === 0 || (p.categories ?? []).some((c) => categories.includes(c))) &&
    (collections.length === 0 || collections.includes(p.collection ?? '')) &&
    (tags.length === 0 || (p.tags ?? []).some((t) => tags.includes(t))) &&
    (available === null || p.variants.some((v) => purchasable(v) && priceIn(v, m) !== null) === (available === 'true')) &&
    (!priced || p.variants.some((v) => {
      const price = priceIn(v, m);
      return price !== null && price >= low && price <= high;
    }));
}

describe('filters and sort on GET /public/v1/products and search_catalog', () => {
  let testApp: TestApp;
  /** Served ids, for the oracle's last tie-break. */
  const idOf = new Map<string, string>();
  const byHandle = new Map(PRODUCTS.map((p) => [p.handle, p]));

  before(async () => {
    testApp = await startTestApp({ catalog: FIXTURE });
    const all = await getOk(testApp.client, '/public/v1/products?limit=20');
    const rest = await getOk(testApp.client, `/public/v1/products?limit=20&cursor=${all.next_cursor}`);
    for (const p of [...all.products, ...rest.products]) idOf.set(p.handle, p.id);
    assert.equal(idOf.size, PRODUCTS.length);
  });
  after(() => testApp.close());

  /** The handles the oracle expects for a query string, in order; `base` is the relevance order of q (from the unfiltered walk). */
  function expected(query: string, base?: string[]): string[] {
    const params = new URLSearchParams(query);
    const m = marketOf(params);
    const sort = params.get('sort') ?? (params.has('q') ? 'relevance' : 'newest');
    const candidates = (base ?? PRODUCTS.map((p) => p.handle)).map((h) => byHandle.get(h)!).filter(oracleFilter(params, m));
    const newest = (a: CatalogFileProduct, b: CatalogFileProduct) =>
      Date.parse(b.created_at!) - Date.parse(a.created_at!) || (idOf.get(a.handle)! < idOf.get(b.handle)! ? -1 : 1);
    const lowest = (p: CatalogFileProduct) => {
      const prices = p.variants.map((v) => priceIn(v, m)).filter((x): x is number => x !== null);
      return prices.length === 0 ? null : Math.min(...prices);
    };
    const key = (p: CatalogFileProduct): number | string => {
      if (sort === 'title') return fold(p.translations[m.locale]?.title ?? p.translations.en.title);
      const price = lowest(p);
      return price === null ? Infinity : sort === 'price_asc' ? price : -price;
    };
    if (sort === 'relevance' && base) return candidates.map((p) => p.handle);
    const compareKeys = (a: CatalogFileProduct, b: CatalogFileProduct) => {
      if (sort === 'newest' || sort === 'relevance') return 0;
      const [x, y] = [key(a), key(b)];
      return x === y ? 0 : x < y ? -1 : 1;
    };
    return candidates.sort((a, b) => compareKeys(a, b) || newest(a, b)).map((p) => p.handle);
  }

  async function assertWalks(query: string, want: string[]) {
    const pages = await walkCursor(testApp.client, `limit=4&${query}`);
    const walked = pages.flatMap((page) => page.handles);
    assert.deepEqual(duplicates(walked), [], `${query}: a product visited twice`);
    assert.deepEqual(walked, want, `${query}: the cursor walk`);
    assert.ok(pages.every((page) => page.count === want.length), `${query}: count`);
    assert.deepEqual(await walkOffset(testApp.client, query, 3), want, `${query}: the offset walk`);
  }

  const FILTERS = [
    'category=coffee', 'category=espresso', 'category=pantry', 'category=olive-oils', 'category=coffee&category=tea',
    'collection=classics', 'collection=classics&collection=summer', 'tag=organic', 'tag=gift&tag=fair-trade',
    'available=true', 'available=false', 'available=true&country=GB', 'price_min=10', 'price_max=12.5',
    'price_min=8&price_max=14.75', 'price_min=8.5&price_max=8.5', 'price_max=9&country=DE', 'price_min=12&country=GB',
  ];
  const SORTS = ['sort=newest', 'sort=relevance', 'sort=price_asc', 'sort=price_desc', 'sort=title', 'sort=title&locale=it', 'sort=price_asc&country=DE', 'sort=price_desc&country=GB'];
  const COMBINED = [
    'category=coffee&sort=price_asc&country=DE', 'tag=organic&available=true&sort=title', 'collection=summer&price_max=15&sort=price_desc&country=GB',
    'category=pantry&tag=gift&sort=title&locale=it', 'available=false&sort=price_asc', 'category=tea&collection=classics&sort=newest',
  ];

  for (const query of [...FILTERS, ...SORTS, ...COMBINED]) {
    it(`${query}: every match once, in the promised order, by cursor and by offset`, async () => {
      const want = expected(query);
      assert.ok(want.length > 0, `${query} matches something in the fixture`);
      await assertWalks(query, want);
    });
  }

  const WITH_QUERY = [
    'q=roast&category=coffee', 'q=roast&sort=price_asc', 'q=oil&available=true&country=DE', 'q=oil&sort=newest',
    'q=o&sort=title', 'q=tea&sort=price_desc&tag=organic', 'q=roast&price_max=13&sort=title&locale=it', 'q=oil&collection=summer',
  ];
  for (const query of WITH_QUERY) {
    it(`${query}: the matches of q, filtered and sorted as promised`, async () => {
      const params = new URLSearchParams(query);
      const base = new URLSearchParams({ q: params.get('q')!, ...(params.has('locale') && { locale: params.get('locale')! }) });
      const relevance = (await walkCursor(testApp.client, `limit=20&${base}`)).flatMap((page) => page.handles);
      const want = expected(query, relevance);
      assert.ok(want.length > 0 && want.length < PRODUCTS.length, `${query} narrows the catalog`);
      await assertWalks(query, want);
    });
  }

  it('the same walks over search_catalog on /mcp give the same products and cursors', async () => {
    const base = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const mcp = await McpTestClient.connect(`${base}/mcp`);
    try {
      for (const query of ['category=coffee&sort=price_asc&country=DE', 'q=oil&available=true&country=DE', 'tag=organic&available=true&sort=title']) {
        const params = new URLSearchParams(query);
        const args: Record<string, unknown> = { limit: 4 };
        for (const [name, value] of params) {
          if (['category', 'collection', 'tag'].includes(name)) args[name] = [...((args[name] as string[]) ?? []), value];
          else if (name === 'available') args[name] = value === 'true';
          else args[name === 'q' ? 'query' : name] = value;
        }
        const walked: string[] = [];
        let cursor: string | null = null;
        do {
          const outcome = await mcp.call('search_catalog', { ...args, ...(cursor && { cursor }) });
          assert.equal(outcome.isError, false, JSON.stringify(outcome.data));
          walked.push(...outcome.data.products.map((p: { handle: string }) => p.handle));
          cursor = outcome.data.next_cursor;
        } while (cursor !== null);
        const rest = (await walkCursor(testApp.client, `limit=4&${query}`)).flatMap((page) => page.handles);
        assert.deepEqual(walked, rest, query);
      }
      const invalid = await mcp.call('search_catalog', { category: ['no-such-category'] });
      assert.equal(invalid.isError, true);
      assert.equal(invalid.data.error.code, 'INVALID_QUERY');
      assert.match(invalid.data.error.message, /category/);
    } finally {
      await mcp.close();
    }
  });

  it('product answers carry categories (titled in the locale), collection, tags and images', async () => {
    const { product: served } = await getOk(testApp.client, '/public/v1/products/item-06?locale=it');
    assert.deepEqual(served.categories, [
      { handle: 'espresso', title: 'Espresso' },
      { handle: 'olive-oils', title: "Oli d'oliva" },
    ]);
    assert.deepEqual(served.collection, { handle: 'classics', title: 'Classici' });
    assert.deepEqual(served.tags, ['gift']);
    assert.deepEqual(served.images, []);
  });

  describe('a cursor is bound to its filters and sort', () => {
    for (const [issued, reused] of [
      ['category=coffee', 'category=tea'],
      ['category=coffee', ''],
      ['', 'category=coffee'],
      ['sort=title', 'sort=price_asc'],
      ['sort=price_asc', 'sort=price_asc&country=DE'],
      ['price_max=12', 'price_max=13'],
      ['available=true', 'available=false'],
    ]) {
      it(`400 INVALID_QUERY for a cursor of "${issued}" sent with "${reused}"`, async () => {
        const first = await getOk(testApp.client, `/public/v1/products?limit=2&${issued}`);
        assert.notEqual(first.next_cursor, null);
        const response = await testApp.client.get(`/public/v1/products?limit=2&${reused}&cursor=${first.next_cursor}`);
        assertProblem(response, 400, 'INVALID_QUERY');
        assert.match(response.data.error.message, /another query or market/);
      });
    }

    it('200 for a cursor sent again with the same filters in another order and explicit default sort', async () => {
      const first = await getOk(testApp.client, '/public/v1/products?limit=2&tag=organic&tag=gift&category=coffee');
      const again = await testApp.client.get(`/public/v1/products?limit=2&category=coffee&tag=gift&tag=organic&sort=newest&cursor=${first.next_cursor}`);
      assert.equal(again.statusCode, 200);
    });

    it('a title cursor stays within 512 URL-safe characters for the longest title key', async () => {
      // Three bytes per letter as UTF-8, the most a title key's letters take.
      const long = '漢'.repeat(280);
      const other = await startTestApp({ catalog: [product('long-a', { title: long }), product('long-b', { title: `${long} b` })] });
      try {
        const page = await getOk(other.client, '/public/v1/products?limit=1&sort=title');
        assert.match(page.next_cursor, /^[A-Za-z0-9_.-]+$/);
        assert.ok(page.next_cursor.length <= 512, `${page.next_cursor.length} characters`);
        const next = await getOk(other.client, `/public/v1/products?limit=1&sort=title&cursor=${page.next_cursor}`);
        assert.deepEqual(next.products.map((p: { handle: string }) => p.handle), ['long-b']);
      } finally {
        await other.close();
      }
    });
  });

  describe('invalid filter and sort values are 400 INVALID_QUERY naming the parameter', () => {
    for (const [query, parameter] of [
      ['sort=cheapest', 'sort'],
      ['category=Coffee', 'category'],
      ['category=no-such-category', 'category'],
      ['collection=winter', 'collection'],
      ['tag=Not%20A%20Tag', 'tag'],
      [Array.from({ length: 11 }, (_, i) => `tag=t${i}`).join('&'), 'tag'],
      ['available=maybe', 'available'],
      ['price_min=-1', 'price_min'],
      ['price_max=cheap', 'price_max'],
      ['price_min=20&price_max=10', 'price_min'],
      ['price_max=10000001', 'price_max'],
      // Written otherwise than plain decimal digits, as limit refuses them too.
      ['price_min=0x10', 'price_min'],
      ['price_min=1e1', 'price_min'],
      ['price_max=%2010', 'price_max'],
      ['price_max=12.', 'price_max'],
      ['price_max=.5', 'price_max'],
      ['price_max=Infinity', 'price_max'],
    ] as const) {
      it(`${query.slice(0, 60)}`, async () => {
        const response = await testApp.client.get(`/public/v1/products?${query}`);
        assertProblem(response, 400, 'INVALID_QUERY');
        assert.ok(response.data.error.message.includes(parameter), response.data.error.message);
      });
    }
  });

  it('answers follow price and taxonomy changes: a repriced or recategorised product moves in and out of filtered pages', async () => {
    const cheap = async () => (await getOk(testApp.client, '/public/v1/products?price_max=6&limit=20')).products.map((p: { handle: string }) => p.handle);
    const tea = async () => (await getOk(testApp.client, '/public/v1/products?category=tea&sort=price_asc&limit=20')).products.map((p: { handle: string }) => p.handle);
    const before = await cheap();
    assert.ok(!before.includes('item-01'));
    assert.ok(!(await tea()).includes('item-01'));
    const changed = { ...byHandle.get('item-01')!, categories: ['tea'] };
    changed.variants = changed.variants.map((v, n) => ({ ...v, prices: n === 0 ? [{ currency: 'EUR', amount: 100 }] : v.prices }));
    await importCatalog(new CatalogWriter(testApp.store.db), { ...FIXTURE, products: [changed] });
    await testApp.app.catalogReadModel.refresh();
    assert.ok((await cheap()).includes('item-01'));
    assert.equal((await tea())[0], 'item-01');
  });
});
