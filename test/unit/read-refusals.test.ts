import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { findIdentifiers, MAX_LOOKUP_IDENTIFIERS } from '../../src/catalog/queries/lookup.js';
import { CatalogReadError, type ReadRefusal } from '../../src/catalog/read-model/read-errors.js';
import type { LiveCatalog } from '../../src/catalog/read-model/live-catalog.js';
import { resolveFilter, type FilterInput } from '../../src/catalog/read-model/product-filter.js';
import { product } from '../support/catalog-builder.js';
import { liveCatalog } from '../support/live-catalog.js';

/** The read rules refuse with a kind and its data, and no surface's syntax (routes, query strings) in the message. */
function assertRefused(read: () => unknown, refusal: ReadRefusal): void {
  assert.throws(read, (error: unknown) => {
    assert.ok(error instanceof CatalogReadError, String(error));
    assert.deepEqual(error.refusal, refusal);
    assert.doesNotMatch(error.message, /\/public\/|\?|=|GET |Invalid query parameter/, error.message);
    return true;
  });
}

describe('read refusals carry kinds (src/catalog/read-model/read-errors.ts)', () => {
  let catalog: LiveCatalog;
  before(async () => {
    catalog = await liveCatalog([product('pesto')]);
  });

  const filters: [FilterInput, ReadRefusal][] = [
    [{ category: ['pasta'] }, { kind: 'unknown_taxonomy', parameter: 'category', handle: 'pasta' }],
    [{ collection: ['summer'] }, { kind: 'unknown_taxonomy', parameter: 'collection', handle: 'summer' }],
    [{ price_min: 20, price_max: 10 }, { kind: 'inverted_price_range', priceMin: 20, priceMax: 10 }],
  ];
  for (const [input, refusal] of filters) {
    it(`a filter ${JSON.stringify(input)} is refused as ${refusal.kind}`, () => {
      assertRefused(() => resolveFilter(input, catalog.taxonomy, 'EUR'), refusal);
    });
  }

  it('a lookup without identifiers, or with too many, is refused as lookup_bounds with the number given', () => {
    assertRefused(() => findIdentifiers(catalog, {}), { kind: 'lookup_bounds', given: 0 });
    const skus = Array.from({ length: MAX_LOOKUP_IDENTIFIERS }, (_, n) => `SKU-${n}`);
    assertRefused(() => findIdentifiers(catalog, { sku: skus, product_id: ['p'] }), { kind: 'lookup_bounds', given: MAX_LOOKUP_IDENTIFIERS + 1 });
  });
});
