import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { indexAfter, positionAt, rankProducts } from '../../src/catalog/read-model/query.js';
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
    return ranking.matches.map((product, index) => `${product.handle}:${positionAt(ranking, index).tier}`);
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

  it('indexAfter: the index following a position, also for a position no longer listed', () => {
    const ranked = rank(undefined);
    assert.equal(indexAfter(ranked, positionAt(ranked, 0)), 1);
    assert.equal(indexAfter(ranked, positionAt(ranked, ranked.matches.length - 1)), ranked.matches.length);
    // A product removed between pages (created between olive-oil-soap and olives): the walk resumes with olives.
    const removed = { tier: 0, createdAt: '2025-01-02T12:00:00.000Z', id: 'gone' };
    assert.equal(ranked.matches[indexAfter(ranked, removed)]!.handle, 'olives');
    const inLaterTier = { tier: 1, createdAt: day(9), id: 'x' };
    assert.equal(indexAfter(rank('olive oil'), inLaterTier), 1);
  });
});
