import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { assertSandboxError, completeCart, SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const text = (length: number) => 'x'.repeat(length);

describe('sandbox input bounds', () => {
  let sandbox: TestApp;
  let token: string;
  let cartId: string;
  let oil: string;

  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
    token = await sandbox.newKey();
    cartId = (await sandbox.newCart(token)).id;
    oil = await sandbox.variantId('OIL');
  });
  after(() => sandbox.close());

  const post = (suffix: string, payload: unknown, headers: Record<string, string> = {}) =>
    sandbox.call(token, 'POST', `/sandbox/v1/carts/${cartId}${suffix}`, payload, headers);
  const raw = (suffix: string, body: string, headers: Record<string, string> = {}) =>
    sandbox.client.request({
      method: 'POST',
      url: `/sandbox/v1/carts/${cartId}${suffix}`,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
      payload: body,
    });

  describe('SandboxAddress', () => {
    const limits: Record<string, { ok: string[]; bad: string[] }> = {
      name: { ok: [text(1), text(256)], bad: ['', text(257)] },
      line_one: { ok: [text(1), text(120)], bad: ['', text(121)] },
      line_two: { ok: ['', text(120)], bad: [text(121)] },
      city: { ok: [text(1), text(80)], bad: ['', text(81)] },
      state: { ok: ['', text(80)], bad: [text(81)] },
      country: { ok: ['IT', 'it', 'De'], bad: ['', 'I', 'ITA', '1T', 'I-'] },
      postal_code: { ok: [text(1), text(20)], bad: ['', text(21)] },
      phone_number: { ok: ['', text(40)], bad: [text(41)] },
    };

    for (const [field, { ok, bad }] of Object.entries(limits)) {
      test(`${field}: 200 at its limits (${ok.map((v) => v.length).join(', ')} characters), 400 past them (${bad.map((v) => v.length).join(', ')})`, async () => {
        for (const value of ok) {
          const response = await post('/shipping-address', { ...VALID_ADDRESS, [field]: value });
          assert.equal(response.statusCode, 200, `${field}=${value.length} chars: ${response.body}`);
          assert.equal(response.data.shipping_address[field], field === 'country' ? value.toUpperCase() : value);
        }
        for (const value of bad) {
          assertSandboxError(await post('/shipping-address', { ...VALID_ADDRESS, [field]: value }), 400, 'sandbox_invalid_request');
        }
      });
    }

    test('400 when a required field is missing or a field has the wrong type', async () => {
      for (const field of ['name', 'line_one', 'city', 'country', 'postal_code']) {
        const { [field as keyof typeof VALID_ADDRESS]: _dropped, ...rest } = VALID_ADDRESS;
        assertSandboxError(await post('/shipping-address', rest), 400, 'sandbox_invalid_request');
      }
      assertSandboxError(await post('/shipping-address', { ...VALID_ADDRESS, name: 1 }), 400, 'sandbox_invalid_request');
      assertSandboxError(await post('/shipping-address', { ...VALID_ADDRESS, line_two: null }), 400, 'sandbox_invalid_request');
      assertSandboxError(await post('/shipping-address', undefined), 400, 'sandbox_invalid_request');
    });
  });

  describe('SandboxItemRequest', () => {
    test('quantity: 201 for 1 and 99; 400 for 0, 100, 1.5, "2", -1 and null', async () => {
      for (const quantity of [1, 99]) {
        const cart = await sandbox.newCart(token);
        const response = await sandbox.call(token, 'POST', `/sandbox/v1/carts/${cart.id}/items`, { variant_id: oil, quantity });
        assert.equal(response.statusCode, 201, response.body);
        assert.equal(response.data.items[0].quantity, quantity);
      }
      for (const quantity of [0, 100, 1.5, '2', -1, null]) {
        assertSandboxError(await post('/items', { variant_id: oil, quantity }), 400, 'sandbox_invalid_request');
      }
    });

    test('variant_id: 400 for 0 and 129 characters or a non-string; 1 and 128 characters pass validation (422, unknown)', async () => {
      for (const variant_id of ['', text(129), 5]) {
        assertSandboxError(await post('/items', { variant_id, quantity: 1 }), 400, 'sandbox_invalid_request');
      }
      for (const variant_id of [text(1), text(128)]) {
        assertSandboxError(await post('/items', { variant_id, quantity: 1 }), 422, 'sandbox_variant_not_purchasable');
      }
    });

    test('400 when variant_id or quantity is missing', async () => {
      assertSandboxError(await post('/items', { quantity: 1 }), 400, 'sandbox_invalid_request');
      assertSandboxError(await post('/items', { variant_id: oil }), 400, 'sandbox_invalid_request');
      assertSandboxError(await post('/items', undefined), 400, 'sandbox_invalid_request');
    });
  });

  test('DELETE variant_id: 400 for 0 and 129 characters; 200 for 1 and 128', async () => {
    for (const id of ['', text(129)]) {
      assertSandboxError(await sandbox.call(token, 'DELETE', `/sandbox/v1/carts/${cartId}/items?variant_id=${id}`), 400, 'sandbox_invalid_request');
    }
    for (const id of [text(1), text(128)]) {
      assert.equal((await sandbox.call(token, 'DELETE', `/sandbox/v1/carts/${cartId}/items?variant_id=${id}`)).statusCode, 200);
    }
  });

  describe('Idempotency-Key', () => {
    test('required routes: 400 for 0 and 256 characters, accepted at 1 and 255', async () => {
      const completeId = await completeCart(sandbox, token);
      for (const [url, success] of [['/sandbox/v1/carts', 201], [`/sandbox/v1/carts/${completeId}/checkout`, 200]] as const) {
        for (const key of ['', text(256)]) {
          assertSandboxError(await sandbox.call(token, 'POST', url, {}, { 'idempotency-key': key }), 400, 'sandbox_invalid_request');
        }
        for (const key of [text(1), text(255)]) {
          const response = await sandbox.call(token, 'POST', url, {}, { 'idempotency-key': key });
          assert.equal(response.statusCode, success, response.body);
          assert.equal(response.headers['idempotency-key'], key);
        }
      }
    });

    test('optional routes: 400 for 0 and 256 characters, accepted at 1 and 255', async () => {
      for (const key of ['', text(256)]) {
        assertSandboxError(await post('/shipping-address', VALID_ADDRESS, { 'idempotency-key': key }), 400, 'sandbox_invalid_request');
      }
      for (const key of ['k', text(255)]) {
        assert.equal((await post('/shipping-address', VALID_ADDRESS, { 'idempotency-key': key })).statusCode, 200);
      }
    });
  });

  test('currency: 400 unless three upper-case letters', async () => {
    for (const currency of ['eur', 'EU', 'EURO', 'E1R', '', 978]) {
      assertSandboxError(
        await sandbox.call(token, 'POST', '/sandbox/v1/carts', { currency }, { 'idempotency-key': `currency-${currency}` }),
        400,
        'sandbox_invalid_request',
      );
    }
  });

  test('400 for extra properties on every body', async () => {
    const cases: [string, unknown, Record<string, string>?][] = [
      ['', { action: 'add_item', variant_id: oil, quantity: 1, note: 'x' }],
      ['', { action: 'set_shipping_address', address: VALID_ADDRESS, note: 'x' }],
      ['', { action: 'set_shipping_address', address: { ...VALID_ADDRESS, note: 'x' } }],
      ['', { action: 'select_shipping_option', shipping_option_id: 'sandbox_standard', note: 'x' }],
      ['', { action: 'checkout_link', note: 'x' }],
      ['/items', { variant_id: oil, quantity: 1, price: 0 }],
      ['/shipping-address', { ...VALID_ADDRESS, email: 'a@b.c' }],
      ['/shipping-option', { shipping_option_id: 'sandbox_standard', amount: 0 }],
      ['/checkout', { pay: true }, { 'idempotency-key': 'extra' }],
    ];
    for (const [suffix, payload, headers] of cases) {
      assertSandboxError(await post(suffix, payload, headers), 400, 'sandbox_invalid_request');
    }
    assertSandboxError(
      await sandbox.call(token, 'POST', '/sandbox/v1/carts', { currency: 'EUR', owner: 'me' }, { 'idempotency-key': 'extra' }),
      400,
      'sandbox_invalid_request',
    );
  });

  test('400 for malformed JSON and for bodies that are not objects on every POST route', async () => {
    for (const suffix of ['', '/items', '/shipping-address', '/shipping-option', '/checkout']) {
      for (const body of ['{"variant_id": ', '[]', '"text"', 'null']) {
        assertSandboxError(await raw(suffix, body, { 'idempotency-key': 'bad-json' }), 400, 'sandbox_invalid_request');
      }
    }
    const create = await sandbox.client.request({
      method: 'POST',
      url: '/sandbox/v1/carts',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'idempotency-key': 'bad-json' },
      payload: '{',
    });
    assertSandboxError(create, 400, 'sandbox_invalid_request');
  });

  test('400 for a wrong or missing discriminator on the compatibility route', async () => {
    for (const payload of [
      { action: 'remove_item', variant_id: oil },
      { action: 'ADD_ITEM', variant_id: oil, quantity: 1 },
      { variant_id: oil, quantity: 1 },
      { action: 7 },
      { action: 'add_item', shipping_option_id: 'sandbox_standard' },
      { action: 'checkout_link', address: VALID_ADDRESS },
      { action: 'select_shipping_option', shipping_option_id: 'express' },
      { action: 'add_item', variant_id: oil, quantity: 100 },
    ]) {
      const response = await post('', payload);
      assertSandboxError(response, 400, 'sandbox_invalid_request');
      assert.equal(response.headers.deprecation, 'true');
    }
  });
});
