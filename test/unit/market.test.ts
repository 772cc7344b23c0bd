import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { marketContext, resolveMarket, type MarketInput } from '../../src/catalog/market.js';
import type { LiveCatalog } from '../../src/catalog/read-model/live-catalog.js';
import { HttpProblem } from '../../src/http/problem.js';
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

  const invalid: [MarketInput, RegExp][] = [
    [{ locale: 'fr' }, /Unsupported locale "fr"/],
    [{ country: 'ITA' }, /not an ISO 3166-1 alpha-2/],
    [{ country: 'CH' }, /No region serves country CH/],
    [{ currency: 'EURO' }, /not an ISO 4217/],
    [{ country: 'IT', currency: 'GBP' }, /Country IT is sold in EUR, not GBP/],
  ];
  for (const [input, message] of invalid) {
    it(`refuses ${JSON.stringify(input)} as REGION_NOT_FOUND with a hint`, () => {
      assert.throws(
        () => resolveMarket(catalog, input),
        (error: unknown) =>
          error instanceof HttpProblem &&
          error.statusCode === 400 &&
          error.code === 'REGION_NOT_FOUND' &&
          message.test(error.message) &&
          typeof error.details.hint === 'string',
      );
    });
  }
});
