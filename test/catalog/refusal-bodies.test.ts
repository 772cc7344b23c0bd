import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertProblem, getOk } from '../support/catalog-assertions.js';
import { useTestApp } from '../support/test-app.js';

const BOUNDS = 'Bounds: 1 to 50 identifiers in product_id, variant_id and sku together; ids of 1 to 128 characters, SKUs of 1 to 100.';
const CURSOR_HINT = 'Send the next_cursor of the previous page unchanged, with the same q, locale, country and currency (and the same filters and sort), and without offset.';

/**
 * The REST wording of every refusal of the read rules, word for word: the read rules
 * refuse with kinds (src/catalog/read-model/read-errors.ts) and REST words them as it always has.
 */
describe('catalog refusals as REST words them', () => {
  const shared = useTestApp();

  const refusals: [string, number, string, string, string][] = [
    ['/public/v1/products?country=JP', 400, 'REGION_NOT_FOUND', 'No region serves country JP.', 'Served countries: IT, AT, BE, DE, ES, FR, NL, GB, US, CH.'],
    ['/public/v1/products?country=1T', 400, 'REGION_NOT_FOUND', '"1T" is not an ISO 3166-1 alpha-2 country code.', 'Send two letters, e.g. IT.'],
    ['/public/v1/products/caffe-espresso-blend?country=GB&currency=EUR', 400, 'REGION_NOT_FOUND', 'Country GB is sold in GBP, not EUR.', 'Omit currency, or send GBP.'],
    ['/public/v1/products?currency=E1R', 400, 'REGION_NOT_FOUND', '"E1R" is not an ISO 4217 currency code.', 'Omit currency, or send EUR.'],
    ['/public/v1/products?locale=fr', 400, 'REGION_NOT_FOUND', 'Unsupported locale "fr".', 'Use one of: en, it.'],
    ['/public/v1/products?cursor=not-a-cursor', 400, 'INVALID_QUERY', 'The cursor is not one this API issued, or it was changed.', CURSOR_HINT],
    ['/public/v1/products?cursor=x&offset=1', 400, 'INVALID_QUERY', 'cursor and offset cannot be combined.', 'Use next_cursor alone for the following pages; offset is for jumping to a position.'],
    [
      '/public/v1/products?category=no-such-category',
      400,
      'INVALID_QUERY',
      'Invalid query parameter: category "no-such-category" is not one of the catalog\'s.',
      'GET /public/v1/categories (MCP: list_categories) lists them.',
    ],
    [
      '/public/v1/products?collection=no-such-collection',
      400,
      'INVALID_QUERY',
      'Invalid query parameter: collection "no-such-collection" is not one of the catalog\'s.',
      'GET /public/v1/collections (MCP: list_categories) lists them.',
    ],
    ['/public/v1/products?price_min=20&price_max=10', 400, 'INVALID_QUERY', 'Invalid query parameter: price_min 20 is above price_max 10.', 'Send price_min at most price_max.'],
    ['/public/v1/lookup', 400, 'INVALID_QUERY', 'No identifier given: name at least one product_id, variant_id or sku.', BOUNDS],
    [
      `/public/v1/lookup?${[...Array.from({ length: 30 }, (_, n) => `sku=S${n}`), ...Array.from({ length: 21 }, (_, n) => `product_id=p${n}`)].join('&')}`,
      400,
      'INVALID_QUERY',
      'Too many identifiers: product_id, variant_id and sku hold 51 together, more than 50.',
      `${BOUNDS} Split the lookup into several.`,
    ],
    [
      '/public/v1/products/no-such-product',
      404,
      'PRODUCT_NOT_FOUND',
      'No published product has the handle "no-such-product".',
      'Search with GET /public/v1/products?q=... to find a product and its handle.',
    ],
  ];
  for (const [url, status, code, message, hint] of refusals) {
    it(`${status} ${code} for ${url.slice(0, 80)}`, async () => {
      const response = await shared.client.get(url);
      assertProblem(response, status, code);
      assert.deepEqual(response.data.error, { code, message, hint });
    });
  }

  it('400 INVALID_QUERY for a cursor of another query', async () => {
    const cursor = (await getOk(shared.client, '/public/v1/products?q=caffe&limit=1')).next_cursor;
    const response = await shared.client.get(`/public/v1/products?q=tea&limit=1&cursor=${encodeURIComponent(cursor)}`);
    assertProblem(response, 400, 'INVALID_QUERY');
    assert.deepEqual(response.data.error, {
      code: 'INVALID_QUERY',
      message: 'The cursor was issued for another query or market, or other filters or sort.',
      hint: CURSOR_HINT,
    });
  });
});
