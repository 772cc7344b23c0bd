import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { reuseJson, serializeJson } from '../../src/http/json-serializer.js';

describe('response JSON serializer', () => {
  const samples: unknown[] = [
    null,
    0,
    -1.5,
    'text "quoted" \u2028 è',
    true,
    [],
    {},
    [1, undefined, null, 'x', { a: undefined }],
    { a: 1, b: undefined, c: null, d: [{ e: 'f' }], 'g h': { i: new Date(0) } },
    { products: [reuseJson({ id: 'p1', price: { amount: 16.5, currency: 'EUR' } })], count: 1, next_cursor: null },
  ];

  for (const sample of samples) {
    it(`writes exactly what JSON.stringify writes for ${JSON.stringify(sample)}`, () => {
      assert.equal(serializeJson(sample), JSON.stringify(sample));
    });
  }

  it('reuses the text of a reused object, so a later change to it is not seen (reused objects are read-only)', () => {
    const product = reuseJson({ id: 'p2', title: 'first' });
    product.title = 'changed';
    assert.equal(serializeJson({ product }), '{"product":{"id":"p2","title":"first"}}');
  });
});
