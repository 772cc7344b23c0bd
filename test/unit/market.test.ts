import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { marketContext, resolveMarket, type MarketInput } from '../../src/catalog/queries/market.js';
import { CatalogReadError, type ReadRefusal } from '../../src/catalog/read-model/read-errors.js';
import type { LiveCatalog } from '../../src/catalog/read-model/live-catalog.js';
import { product } from '../support/catalog-builder.js';
import { liveCatalog } from '../support/live-catalog.js';

describe('resolveMarket (docs/decisions.md, Markets)', () => {
  let catalog: LiveCatalog;
  before(async () => {
    catalog = await liveCatalog([product('pesto')]);
  });
  const context = (input: MarketInput) => marketContext(resolveMarket(catalog, input));

  it('defaults to en / IT / EUR in reg_it', () => {
    assert.deepEqual(context({}), { locale: 'en', country: 'IT', currency: 'EUR', region_id: 'reg_it' });
  });

  it("takes the country's region and the region's currency", () => {
    assert.deepEqual(context({ country: 'GB' }), { locale: 'en', country: 'GB', currency: 'GBP', region_id: 'reg_gb' });
  });

  it('folds the case of every value', () => {
    assert.deepEqual(context({ locale: 'IT', country: 'de', currency: 'eur' }), { locale: 'it', country: 'DE', currency: 'EUR', region_id: 'reg_eu' });
  });

  const served = ['IT', 'DE', 'FR', 'GB', 'US', 'JP'];
  const invalid: [MarketInput, RegExp, ReadRefusal][] = [
    [{ locale: 'fr' }, /Unsupported locale "fr"/, { kind: 'invalid_market', parameter: 'locale', malformed: false, accepted: ['en', 'it'] }],
    [{ country: 'ITA' }, /not an ISO 3166-1 alpha-2/, { kind: 'invalid_market', parameter: 'country', malformed: true, accepted: served }],
    [{ country: 'CH' }, /No region serves country CH/, { kind: 'invalid_market', parameter: 'country', malformed: false, accepted: served }],
    [{ currency: 'EURO' }, /not an ISO 4217/, { kind: 'invalid_market', parameter: 'currency', malformed: true, accepted: ['EUR'] }],
    [{ country: 'IT', currency: 'GBP' }, /Country IT is sold in EUR, not GBP/, { kind: 'invalid_market', parameter: 'currency', malformed: false, accepted: ['EUR'] }],
  ];
  for (const [input, message, refusal] of invalid) {
    it(`refuses ${JSON.stringify(input)} as an invalid market naming the parameter and what it accepts`, () => {
      assert.throws(
        () => resolveMarket(catalog, input),
        (error: unknown) => {
          assert.ok(error instanceof CatalogReadError);
          assert.match(error.message, message);
          assert.deepEqual(error.refusal, refusal);
          return true;
        },
      );
    });
  }
});
