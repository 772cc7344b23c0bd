import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { indexAfter, matchingProducts, positionOf } from '../../src/catalog/read-model/query.js';
import type { CatalogSnapshot } from '../../src/catalog/read-model/snapshot.js';
import { day, product } from '../support/catalog-builder.js';
import { catalogSnapshot } from '../support/catalog-snapshot.js';

describe('matchingProducts and indexAfter (docs/decisions.md, Ordering)', () => {
  let snapshot: CatalogSnapshot;
  before(async () => {
    snapshot = await catalogSnapshot([
      product('olive-oil', { title: 'Olive Oil', titleIt: "Olio d'oliva", created_at: day(1) }),
      product('olive-oil-soap', { title: 'Olive Oil Soap', created_at: day(3) }),
      product('olives', { title: 'Green Olives', created_at: day(2) }),
      product('espresso', { title: 'Caffè Espresso', created_at: day(4) }),
    ]);
  });
  const handles = (q: string | undefined, locale: 'en' | 'it' = 'en') =>
    matchingProducts(snapshot, q, locale).map(({ product, tier }) => `${product.handle}:${tier}`);

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
    const ranked = matchingProducts(snapshot, undefined, 'en');
    assert.equal(indexAfter(ranked, positionOf(ranked[0]!)), 1);
    assert.equal(indexAfter(ranked, positionOf(ranked.at(-1)!)), ranked.length);
    // A product removed between pages (created between olive-oil-soap and olives): the walk resumes with olives.
    const removed = { tier: 0, createdAt: '2025-01-02T12:00:00.000Z', id: 'gone' };
    assert.equal(ranked[indexAfter(ranked, removed)]!.product.handle, 'olives');
    const inLaterTier = { tier: 1, createdAt: day(9), id: 'x' };
    assert.equal(indexAfter(matchingProducts(snapshot, 'olive oil', 'en'), inLaterTier), 1);
  });
});
