import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { LiveCatalog } from '../../src/catalog/read-model/live-catalog.js';
import { rankProducts } from '../../src/catalog/read-model/query.js';
import { catalogProduct } from '../support/catalog-product.js';

const product = (id: string, title: string, day: number) => catalogProduct(id, { title, createdAtMs: Date.UTC(2025, 0, day) });
const handles = (catalog: LiveCatalog, q: string) => {
  const ranking = rankProducts(catalog, [q], 'en');
  return ranking.range(0, ranking.count).map((match) => match.product.handle);
};

describe('LiveCatalog: a full build served before its search index is complete', () => {
  it('indexes in steps; changes applied meanwhile are searched by their new state only', () => {
    const catalog = new LiveCatalog(1);
    catalog.add([product('figs', 'Dried figs', 1), product('olives', 'Green olives', 2), product('capers', 'Salted capers', 3)]);
    catalog.sort();
    assert.equal(catalog.searchable, false);
    assert.deepEqual(catalog.products.map((entry) => entry.id), ['capers', 'olives', 'figs']);

    assert.equal(catalog.indexSome(1), 2);
    // Retitled and removed before the index reached them; one added.
    const figs = product('figs', 'Smyrna figs', 1);
    catalog.apply(['figs', 'capers', 'honey'], new Map([['figs', figs], ['honey', product('honey', 'Chestnut honey', 4)]]));
    assert.equal(catalog.indexSome(10), 0);
    assert.equal(catalog.searchable, true);

    assert.deepEqual(handles(catalog, 'smyrna'), ['figs']);
    assert.deepEqual(handles(catalog, 'dried'), []);
    assert.deepEqual(handles(catalog, 'capers'), []);
    assert.deepEqual(handles(catalog, 'honey'), ['honey']);
    assert.deepEqual(handles(catalog, 'olives'), ['olives']);
    assert.deepEqual(catalog.products.map((entry) => entry.id), ['honey', 'olives', 'figs']);
    assert.equal(catalog.variantById.get('variant_capers'), undefined);
  });
});
