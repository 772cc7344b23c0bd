import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { useTestApp } from '../support/test-app.js';

const CART_ANSWER = [{ $ref: '#/components/schemas/SandboxCart' }, { $ref: '#/components/schemas/SandboxMarketCart' }];

describe('carts opened for a market and setting a quantity in /openapi.json', () => {
  const sandbox = useTestApp({ catalog: SANDBOX_PRODUCTS });
  let document: any;
  before(async () => {
    document = (await sandbox.client.get('/openapi.json')).data;
  });

  const schema = (name: string) => document.components.schemas[name];
  const accepts = (component: string, property: string, value: unknown): boolean => {
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    return ajv.validate({ ...schema(component).properties[property], components: document.components }, value);
  };

  test('POST /sandbox/v1/carts/{id}/items/{variant_id} takes a closed quantity body, 0 to 99, and an optional Idempotency-Key', () => {
    const operation = document.paths['/sandbox/v1/carts/{id}/items/{variant_id}'].post;
    assert.equal(operation.operationId, 'setSandboxCartItemQuantity');
    assert.deepEqual(operation.security, [{ sandboxBearer: ['cart:write'] }]);
    assert.deepEqual(operation.parameters.filter((p: any) => p.in === 'path').map((p: any) => p.name), ['id', 'variant_id']);
    assert.ok(operation.parameters.some((p: any) => p.in === 'header' && p.name === 'idempotency-key' && !p.required));
    assert.equal(operation.requestBody.required, true);
    assert.equal(operation.requestBody.content['application/json'].schema.$ref, '#/components/schemas/SandboxItemQuantityRequest');
    const body = schema('SandboxItemQuantityRequest');
    assert.equal(body.additionalProperties, false);
    assert.deepEqual(body.required, ['quantity']);
    assert.deepEqual([body.properties.quantity.type, body.properties.quantity.minimum, body.properties.quantity.maximum], ['integer', 0, 99]);
    assert.deepEqual(Object.keys(operation.responses).sort(), ['200', '400', '401', '404', '413', '415', '422', '429', '500', '503']);
    for (const header of ['RateLimit-Limit', 'Idempotency-Key', 'Idempotent-Replayed']) assert.ok(operation.responses['200'].headers[header], header);
    assert.match(operation.responses['404'].description, /not in the cart/);
  });

  test('SandboxCartRequest takes country and locale; currency has no fixed default, since it follows country', () => {
    const request = schema('SandboxCartRequest');
    assert.deepEqual(Object.keys(request.properties).sort(), ['country', 'currency', 'locale']);
    assert.equal(request.required, undefined);
    assert.equal(request.properties.currency.default, undefined);
    assert.equal(request.properties.country.pattern, '^[A-Za-z]{2}$');
    assert.deepEqual(request.properties.locale.enum, ['en', 'it']);
  });

  test('every answer with a cart is a SandboxCart or a SandboxMarketCart', () => {
    const answers = Object.entries(document.paths as Record<string, Record<string, any>>)
      .filter(([path]) => path.startsWith('/sandbox/v1/carts'))
      .flatMap(([path, item]) =>
        Object.entries(item).map(([method, operation]) => ({ name: `${method} ${path}`, responses: operation.responses as Record<string, any> })),
      )
      // A HEAD answers a cart's headers only.
      .filter(({ name }) => !name.endsWith('/shipping-options') && !name.startsWith('head '));
    assert.equal(answers.length, 9);
    for (const { name, responses } of answers) {
      const success = Object.entries(responses).find(([status]) => status.startsWith('2'))![1];
      const answer = success.content['application/json'].schema;
      assert.deepEqual(answer.anyOf, CART_ANSWER, name);
      assert.equal(answer.type, 'object', name);
    }
  });

  test('SandboxMarketCart and its lines: every field an answer always carries is required, the nullable ones accept null', () => {
    const cart = schema('SandboxMarketCart');
    const optional = ['shipping_address', 'shipping_option', 'status', 'checkout_url'];
    assert.deepEqual([...cart.required].sort(), Object.keys(cart.properties).filter((name) => !optional.includes(name)).sort());
    assert.deepEqual(Object.keys(cart.properties).sort(), [...Object.keys(schema('SandboxCart').properties), 'market'].sort());
    assert.equal(cart.properties.items.items.$ref, '#/components/schemas/SandboxMarketCartItem');
    assert.ok(accepts('SandboxMarketCart', 'market', null));
    assert.ok(accepts('SandboxMarketCart', 'market', { locale: 'en', country: 'DE', currency: 'EUR', region_id: 'reg_eu' }));
    assert.ok(!accepts('SandboxMarketCart', 'market', { country: 'DE', region_id: 'reg_eu' }));

    const line = schema('SandboxMarketCartItem');
    assert.deepEqual(Object.keys(line.properties), [
      'variant_id',
      'quantity',
      'unit_price',
      'product_handle',
      'title',
      'variant_display_name',
      'thumbnail',
      'line_total',
    ]);
    assert.deepEqual([...line.required].sort(), Object.keys(line.properties).sort());
    for (const property of ['variant_display_name', 'thumbnail']) assert.ok(accepts('SandboxMarketCartItem', property, null), property);
    assert.ok(!accepts('SandboxMarketCartItem', 'title', null));
  });
});
