import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { positionOf, rankProducts, type Ranking } from '../../src/catalog/read-model/query.js';
import { words } from '../../src/catalog/read-model/text.js';
import type { LiveCatalog } from '../../src/catalog/read-model/live-catalog.js';
import { day, product } from '../support/catalog-builder.js';
import { liveCatalog } from '../support/live-catalog.js';

describe('rankProducts and indexAfter (docs/decisions.md, Ordering)', () => {
  let catalog: LiveCatalog;
  before(async () => {
    catalog = await liveCatalog([
      product('olive-oil', { title: 'Olive Oil', titleIt: "Olio d'oliva", created_at: day(1) }),
      product('olive-oil-soap', { title: 'Olive Oil Soap', created_at: day(3) }),
      product('olives', { title: 'Green Olives', created_at: day(2) }),
      product('espresso', { title: 'Caffè Espresso', created_at: day(4) }),
    ]);
  });
  const rank = (q: string | undefined, locale: 'en' | 'it' = 'en') => rankProducts(catalog, words(q ?? ''), locale);
  const handles = (q: string | undefined, locale: 'en' | 'it' = 'en') => {
    const ranking = rank(q, locale);
    return ranking.range(0, ranking.count).map(({ product, key }) => `${product.handle}:${key}`);
  };

  it('without a query: every product, newest first, all in tier 0', () => {
    assert.deepEqual(handles(undefined), ['espresso:0', 'olive-oil-soap:0', 'olives:0', 'olive-oil:0']);
    assert.deepEqual(handles('  '), handles(undefined));
  });

  it('tier 0 the exact handle, 1 every word in the title, 2 a prefix match; newest first within a tier', () => {
    assert.deepEqual(handles('olive oil'), ['olive-oil:0', 'olive-oil-soap:1']);
    assert.deepEqual(handles('oliv'), ['olive-oil-soap:2', 'olives:2', 'olive-oil:2']);
  });

  it('folds case and accents, and searches the title in the locale', () => {
    assert.deepEqual(handles('CAFFE'), ['espresso:1']);
    assert.deepEqual(handles('olio', 'it'), ['olive-oil:1']);
    assert.deepEqual(handles('olio', 'en'), []);
  });

  it('from 5 letters a query word also finds words a fifth of its length in edits away, all in the partial tier', () => {
    assert.deepEqual(handles('olivr'), ['olive-oil-soap:2', 'olive-oil:2'], 'one edit from olive, two from olives');
    assert.deepEqual(handles('olvi'), [], 'no edits under 5 letters');
    assert.deepEqual(handles('espresos'), ['espresso:2'], 'two edits from 8 letters');
    assert.deepEqual(handles('espreos'), [], 'one edit under 8 letters');
  });

  it('indexAfter: the index following a position, also for a position no longer listed', () => {
    const ranked = rank(undefined);
    const at = (ranking: Ranking, index: number) => ranking.range(index, index + 1)[0]!;
    assert.equal(ranked.indexAfter(positionOf(at(ranked, 0))), 1);
    assert.equal(ranked.indexAfter(positionOf(at(ranked, ranked.count - 1))), ranked.count);
    // A product removed between pages (created between olive-oil-soap and olives): the walk resumes with olives.
    const removed = { key: 0, createdAt: '2025-01-02T12:00:00.000Z', id: 'gone' };
    assert.equal(at(ranked, ranked.indexAfter(removed)).product.handle, 'olives');
    const inLaterTier = { key: 1, createdAt: day(9), id: 'x' };
    assert.equal(rank('olive oil').indexAfter(inLaterTier), 1);
  });
});

describe('a broad search: first pages picked from the unsorted matches, deeper ones from the sorted order', () => {
  // 450 matches of one word (over the 200 a pick serves), in three tiers, with creation
  // times shared by up to three products so that ids break ties; numbered in an order
  // unrelated to the served one.
  const matchCount = 450;
  let catalog: LiveCatalog;
  before(async () => {
    catalog = await liveCatalog(
      Array.from({ length: matchCount }, (_, n) => {
        const number = (n * 7919) % matchCount;
        const title = number % 3 === 0 ? 'Amber Honey' : `Amberwood ${number}`;
        return product(number === 0 ? 'amber' : `amber-${number}`, { title, created_at: new Date(Date.UTC(2025, 0, 1) + Math.floor(number / 3) * 60_000).toISOString() });
      }),
    );
  });
  const served = (ranking: Ranking, start: number, end: number) => ranking.range(start, end).map(({ product, key }) => `${product.handle}:${key}`);

  it('gives every page the same matches, in the same order, however it is reached', () => {
    const whole = served(rankProducts(catalog, ['amber'], 'en'), 0, matchCount);
    assert.equal(whole.length, matchCount);
    assert.equal(whole[0], 'amber:0');
    const expected = [...whole].sort((a, b) => {
      const [handleA, tierA] = a.split(':');
      const [handleB, tierB] = b.split(':');
      const created = (handle: string) => catalog.productByHandle.get(handle)!.createdAtMs;
      return Number(tierA) - Number(tierB) || created(handleB!) - created(handleA!) || (catalog.productByHandle.get(handleA!)!.id < catalog.productByHandle.get(handleB!)!.id ? -1 : 1);
    });
    assert.deepEqual(whole, expected);
    for (const [start, end] of [[0, 20], [0, 1], [180, 200], [199, 201], [400, 450]] as const) {
      assert.deepEqual(served(rankProducts(catalog, ['amber'], 'en'), start, end), whole.slice(start, end), `matches ${start} to ${end} of a fresh ranking`);
    }
  });

  it('locates a cursor position alike before and after the matches are sorted', () => {
    const fresh = rankProducts(catalog, ['amber'], 'en');
    const sorted = rankProducts(catalog, ['amber'], 'en');
    sorted.range(300, 320);
    for (const index of [0, 1, 150, 151, 299, matchCount - 1]) {
      const position = positionOf(sorted.range(index, index + 1)[0]!);
      assert.equal(fresh.indexAfter(position), index + 1);
      assert.equal(sorted.indexAfter(position), index + 1);
    }
  });
});
