import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getOk } from '../support/catalog-assertions.js';
import { day, product } from '../support/catalog-builder.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * For q=espresso: `espresso` matches only by its handle (exact handle, tier 0) and is the
 * oldest; `espresso-cups` and `double-shot` have it as a whole title word (tier 1);
 * `deluxe-kit` matches only a word prefix (tier 2) and is the newest. For q=caffe,
 * "Caffè Corretto" has the whole word (tier 1) and "Caffettiera" only its prefix (tier 2).
 */
const PRODUCTS = [
  product('espresso', { title: 'Stovetop Maker', created_at: day(1) }),
  product('caffe-corretto', { title: 'Caffè Corretto', titleIt: 'Caffè corretto alla grappa', created_at: day(2) }),
  product('caffettiera', { title: 'Caffettiera Moka', created_at: day(3) }),
  product('double-shot', { title: 'Double Espresso Roast', created_at: day(4) }),
  product('espresso-cups', { title: 'Espresso Cups', created_at: day(5) }),
  product('deluxe-kit', { title: 'Deluxe Espressotonic Kit', created_at: day(6) }),
  product('twin-b', { title: 'Twin', created_at: day(7) }),
  product('twin-a', { title: 'Twin', created_at: day(7) }),
];

describe('search and ordering (docs/decisions.md, Ordering)', () => {
  let testApp: TestApp;

  before(async () => {
    testApp = await startTestApp({ catalog: PRODUCTS });
  });
  after(() => testApp.close());

  const search = async (query: string): Promise<string[]> => {
    const data = await getOk(testApp.client, `/public/v1/products?limit=20&${query}`);
    return data.products.map((p: any) => p.handle);
  };
  const q = (text: string) => search(`q=${encodeURIComponent(text)}`);

  it('200 newest first without q (created_at descending, then id)', async () => {
    const data = await getOk(testApp.client, '/public/v1/products?limit=20');
    const handles = data.products.map((p: any) => p.handle);
    assert.deepEqual(handles.slice(2), ['deluxe-kit', 'espresso-cups', 'double-shot', 'caffettiera', 'caffe-corretto', 'espresso']);
    assert.deepEqual([...handles.slice(0, 2)].sort(), ['twin-a', 'twin-b']);
    assert.ok(data.products[0].id < data.products[1].id, 'products created at the same time are ordered by id');
  });

  it('200 with relevance tiers for q: exact handle, then whole title word, then word prefix; ties newest first', async () => {
    assert.deepEqual(await q('espresso'), ['espresso', 'espresso-cups', 'double-shot', 'deluxe-kit']);
  });

  for (const text of ['caffe', 'Caffè', 'CAFFÈ', 'cAfFe', 'CAFFE']) {
    it(`200 finding "Caffè Corretto" (whole word) before "Caffettiera Moka" (prefix) case- and accent-insensitively for q=${text}`, async () => {
      assert.deepEqual(await q(text), ['caffe-corretto', 'caffettiera']);
    });
  }

  it('200 matching word prefixes', async () => {
    assert.deepEqual(await q('corr'), ['caffe-corretto']);
    assert.deepEqual(await q('stove'), ['espresso']);
    assert.deepEqual(await q('espresso cu'), ['espresso-cups']);
  });

  it('200 requiring every word of q', async () => {
    assert.deepEqual(await q('caffe moka'), ['caffettiera']);
    assert.deepEqual(await q('caffe roast'), []);
  });

  it('200 searching handles: a handle finds its product first even when the title lacks its words', async () => {
    assert.deepEqual(await q('double-shot'), ['double-shot']);
    assert.deepEqual(await q('espresso-cups'), ['espresso-cups']);
    assert.equal((await q('espresso'))[0], 'espresso');
  });

  it('200 searching the title in the requested locale', async () => {
    assert.deepEqual(await search('q=grappa&locale=it'), ['caffe-corretto']);
    assert.deepEqual(await search('q=grappa&locale=en'), []);
  });

  it('200 with count equal to the number of matches, not the page size', async () => {
    const data = await getOk(testApp.client, '/public/v1/products?q=espresso&limit=1');
    assert.equal(data.count, 4);
    assert.equal(data.products.length, 1);
  });
});
