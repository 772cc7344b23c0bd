import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Validator } from '@seriousme/openapi-schema-validator';
import { startTestApp, type TestApp } from '../support/test-app.js';

const CATALOG_SCHEMAS = [
  'Product',
  'Variant',
  'VariantOption',
  'Price',
  'PriceRange',
  'Availability',
  'MarketContext',
  'ProductList',
  'ProductDetail',
  'PublicApiError',
];
const ERROR_CODES = [
  'REGION_NOT_FOUND',
  'PRODUCT_NOT_FOUND',
  'INVALID_HANDLE',
  'INVALID_QUERY',
  'RATE_LIMITED',
  'INTERNAL_ERROR',
  'CHANGES_EXPIRED',
  'TOO_MANY_STREAMS',
  'STREAMS_UNAVAILABLE',
];
const RATE_LIMIT_HEADERS = ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'];
const CATALOG_OPERATIONS = ['/public/v1/products', '/public/v1/products/{handle}', '/public/v1/changes'];

describe('GET /openapi.json', () => {
  let testApp: TestApp;
  let doc: any;

  before(async () => {
    testApp = await startTestApp();
    const response = await testApp.client.get('/openapi.json');
    assert.equal(response.statusCode, 200);
    doc = response.data;
  });
  after(() => testApp.close());

  it('200 with a document that validates as OpenAPI 3.1', async () => {
    assert.match(doc.openapi, /^3\.1\./);
    const result = await new Validator().validate(doc);
    assert.equal(result.valid, true, JSON.stringify(result.errors, null, 2));
  });

  it('200 with info.version 1.0.0', () => {
    assert.equal(doc.info.version, '1.0.0');
  });

  it('200 with every catalog resource under components.schemas by its contract name', () => {
    for (const name of CATALOG_SCHEMAS) assert.ok(doc.components.schemas[name], `${name} is missing`);
  });

  it('200 with the PublicApiError code declared as an enum of every catalog code, INVALID_QUERY included', () => {
    const code = doc.components.schemas.PublicApiError.properties.error.properties.code;
    assert.ok(Array.isArray(code.enum), `code has no enum: ${JSON.stringify(code)}`);
    assert.deepEqual([...code.enum].sort(), [...ERROR_CODES].sort());
  });

  for (const path of CATALOG_OPERATIONS) {
    describe(`GET ${path}`, () => {
      const responses = () => doc.paths[path].get.responses;

      it('documents the RateLimit headers as integers on 200 and 429', () => {
        for (const status of ['200', '429']) {
          for (const name of RATE_LIMIT_HEADERS) {
            assert.equal(responses()[status].headers?.[name]?.schema?.type, 'integer', `${name} on ${status}`);
          }
        }
      });

      it('documents Retry-After as an integer on 429', () => {
        assert.equal(responses()['429'].headers?.['Retry-After']?.schema?.type, 'integer');
      });

      it('documents PublicApiError bodies for every error status', () => {
        const statuses = path.endsWith('{handle}') ? ['400', '404', '429', '500'] : ['400', '429', '500'];
        for (const status of statuses) {
          assert.equal(responses()[status].content['application/json'].schema.$ref, '#/components/schemas/PublicApiError', status);
        }
      });
    });
  }

  it('documents the list query bounds', () => {
    const parameters = Object.fromEntries(doc.paths['/public/v1/products'].get.parameters.map((p: any) => [p.name, p.schema]));
    assert.equal(parameters.q.maxLength, 120);
    assert.deepEqual([parameters.limit.minimum, parameters.limit.maximum, parameters.limit.default], [1, 20, 10]);
    assert.deepEqual([parameters.offset.minimum, parameters.offset.maximum], [0, 1000]);
    assert.equal(parameters.cursor.maxLength, 512);
  });
});
