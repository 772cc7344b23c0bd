import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { orderCount } from '../support/checkout.js';
import { SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { useTestApp } from '../support/test-app.js';
import { ucpTestConfig, usePlatformServer } from '../support/ucp-platform.js';
import { line, ucpShopper, type ShoppingProfile } from '../support/ucp-shopping.js';
import { assertValid, ucpValidator } from '../support/ucp-validator.js';

const { validator, skip } = await ucpValidator();
const VERSION = '2026-04-08';
const CHECKOUT = 'dev.ucp.shopping.checkout';

/** A destination in the default market, with every field a shipment needs. */
const DESTINATION = { street_address: 'Via Roma 1', address_locality: 'Milano', postal_code: '20121', address_country: 'IT', first_name: 'Ada', last_name: 'Lovelace' };

/** The fulfillment extension's part of a request: the destination and the option. */
const fulfillment = (option = 'sandbox_standard', destination: object = DESTINATION) => ({
  methods: [{ type: 'shipping', destinations: [{ id: 'home', ...destination }], selected_destination_id: 'home', groups: [{ selected_option_id: option }] }],
});

/** A sandbox payment instrument paying with `token`. */
const instrument = (token: string, fields: object = {}) => ({ id: 'instr_1', handler_id: 'sandbox_payment', type: 'card', credential: { type: 'sandbox_token', token }, ...fields });
const pay = (token: string) => ({ payment: { instruments: [instrument(token)] } });

/**
 * UCP's checkout and order operations over REST (/ucp/v1/checkout-sessions,
 * /ucp/v1/orders): every answer checked against the app's /openapi.json and the
 * release's schemas, composed with the extensions the platform negotiated.
 */
describe('UCP checkout and orders over REST', { skip }, () => {
  const testApp = useTestApp({ catalog: SANDBOX_PRODUCTS, config: { ucp: ucpTestConfig() } });
  const platform = usePlatformServer();
  const shopper = ucpShopper(() => testApp, platform, () => validator!);
  const ids: Record<string, string> = {};
  let token: string;
  before(async () => {
    for (const sku of ['OIL', 'TEN', 'SOLD-OUT', 'DRAFT']) ids[sku] = await testApp.variantId(sku);
    token = await testApp.newKey();
  });

  const create = (body: unknown, options: { token?: string; profile?: ShoppingProfile } = {}) => shopper.rest('create_checkout', 'POST', '/checkout-sessions', { token, body, ...options });
  const update = (id: string, body: unknown, profile?: ShoppingProfile) => shopper.rest('update_checkout', 'PUT', `/checkout-sessions/${id}`, { token, body, ...(profile && { profile }) });
  const complete = (id: string, body: unknown, options: { token?: string } = {}) => shopper.rest('complete_checkout', 'POST', `/checkout-sessions/${id}/complete`, { token, body, ...options });
  const cancel = (id: string) => shopper.rest('cancel_checkout', 'POST', `/checkout-sessions/${id}/cancel`, { token });
  const get = (id: string, options: { token?: string } = {}) => shopper.rest('get_checkout', 'GET', `/checkout-sessions/${id}`, { token, ...options });
  const checkoutCount = async () => Number((await testApp.store.db.selectFrom('sandbox_checkouts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  /** A checkout ready to complete: two oils and a ten-cent item shipped to DESTINATION. */
  const ready = async () => {
    const response = await create({ line_items: [line(ids.OIL!, 2), line(ids.TEN!, 1)], fulfillment: fulfillment() });
    assert.equal(response.data.status, 'ready_for_complete', response.body);
    return response.data;
  };

  it('create_checkout: 201, ready to complete with a destination and an option; every extension negotiated answers its part', async () => {
    const body = {
      line_items: [line(ids.OIL!, 2), line(ids.TEN!, 1)],
      buyer: { email: 'ada@example.com', first_name: 'Ada', consent: { marketing: false, analytics: true } },
      fulfillment: fulfillment(),
      discounts: { codes: ['WELCOME10'] },
    };
    const response = await create(body);
    assert.equal(response.statusCode, 201, response.body);
    const checkout = response.data;
    assert.deepEqual(checkout.ucp.capabilities, {
      [CHECKOUT]: [{ version: VERSION }],
      'dev.ucp.shopping.fulfillment': [{ version: VERSION }],
      'dev.ucp.shopping.discount': [{ version: VERSION }],
      'dev.ucp.shopping.buyer_consent': [{ version: VERSION }],
    });
    assert.deepEqual(checkout.ucp.payment_handlers['dev.vetrina.sandbox_payment'][0].id, 'sandbox_payment');
    assert.match(checkout.id, /^sandbox_checkout_/);
    assert.equal(checkout.status, 'ready_for_complete');
    assert.equal(checkout.currency, 'EUR');
    assert.deepEqual(
      checkout.line_items.map((item: any) => [item.id, item.item.title, item.item.price, item.quantity, item.totals.at(-1).amount]),
      [
        [ids.OIL, 'olive oil', 1650, 2, 3300],
        [ids.TEN, 'cents (TEN)', 10, 1, 10],
      ],
    );
    assert.deepEqual(checkout.totals, [
      { type: 'subtotal', amount: 3310 },
      { type: 'fulfillment', display_text: 'Standard shipping (simulated)', amount: 490 },
      { type: 'total', amount: 3800 },
    ]);
    assert.deepEqual(checkout.buyer, { email: 'ada@example.com', first_name: 'Ada', consent: { marketing: false, analytics: true } });
    assert.deepEqual(checkout.fulfillment, {
      methods: [
        {
          id: 'shipping_1',
          type: 'shipping',
          line_item_ids: [ids.OIL, ids.TEN],
          destinations: [{ id: 'destination_1', ...DESTINATION }],
          selected_destination_id: 'destination_1',
          groups: [
            {
              id: 'package_1',
              line_item_ids: [ids.OIL, ids.TEN],
              options: [{ id: 'sandbox_standard', title: 'Standard shipping (simulated)', totals: [{ type: 'total', amount: 490 }] }],
              selected_option_id: 'sandbox_standard',
            },
          ],
        },
      ],
    });
    assert.deepEqual(checkout.discounts, { codes: ['WELCOME10'], applied: [] });
    assert.deepEqual(checkout.messages, [
      { type: 'warning', code: 'discount_code_invalid', path: '$.discounts.codes[0]', content: 'Code WELCOME10 was not applied: the sandbox has no discounts, so every code is rejected.' },
    ]);
    assert.deepEqual(checkout.links, []);
    assert.deepEqual(checkout.context, { address_country: 'IT', currency: 'EUR', language: 'en' });
    assert.equal(checkout.continue_url, testApp.config.storefrontUrl);
    assert.deepEqual([checkout.environment, checkout.simulated], ['sandbox', true]);

    // The tests' own requests are the release's.
    const capabilities = validator!.negotiate((await testApp.client.get('/.well-known/ucp')).data, (await (await fetch(platform.url('/all.json'))).json()) as object).capabilities;
    assertValid(validator!.validateRestRequest('create_checkout', body, { capabilities }), 'the create request');
    assertValid(validator!.validateRestRequest('complete_checkout', pay('tok_sandbox_success'), { capabilities }), 'the complete request');
  });

  it('create_checkout: incomplete, each thing to fix an error message with its path; lines that cannot be bought stay and cost nothing', async () => {
    const response = await create({ line_items: [line(ids.OIL!, 1), line(ids['SOLD-OUT']!, 1), line(ids.DRAFT!, 2)] });
    assert.equal(response.statusCode, 201, response.body);
    const checkout = response.data;
    assert.equal(checkout.status, 'incomplete');
    assert.deepEqual(
      checkout.messages.map((message: any) => [message.code, message.severity, message.path]),
      [
        ['out_of_stock', 'recoverable', '$.line_items[1]'],
        ['item_unavailable', 'recoverable', '$.line_items[2]'],
        ['missing', 'recoverable', '$.fulfillment.methods[0].destinations'],
        ['missing', 'recoverable', '$.fulfillment.methods[0].groups[0].selected_option_id'],
      ],
    );
    assert.deepEqual(
      checkout.line_items.map((item: any) => [item.item.title, item.item.price, item.totals.at(-1).amount]),
      [
        ['olive oil', 1650, 1650],
        ['sold out', 0, 0],
        [ids.DRAFT, 0, 0],
      ],
    );
    assert.deepEqual(checkout.totals, [
      { type: 'subtotal', amount: 1650 },
      { type: 'total', amount: 1650 },
    ]);
    assert.deepEqual(checkout.fulfillment.methods[0].selected_destination_id, null);
  });

  it('create_checkout: when no line can be bought, no checkout is made, not even a canceled one, and the outcome says why', async () => {
    const before = await checkoutCount();
    const response = await create({ line_items: [line(ids['SOLD-OUT']!, 1), line(ids.DRAFT!, 2)] });
    assert.equal(response.statusCode, 200, response.body);
    assert.equal(response.data.ucp.status, 'error');
    assert.deepEqual(
      response.data.messages.map((message: any) => [message.code, message.severity]),
      [
        ['out_of_stock', 'unrecoverable'],
        ['item_unavailable', 'unrecoverable'],
      ],
    );
    assert.match(response.data.messages[0].content, new RegExp(`Item ${ids['SOLD-OUT']} is out of stock: no checkout was created`));
    assert.equal(response.data.id, undefined);
    assert.equal(await checkoutCount(), before);
  });

  it('update_checkout replaces the lines, buyer and fulfillment: what is left out is cleared', async () => {
    const checkout = (await create({ line_items: [line(ids.OIL!, 1)], buyer: { email: 'ada@example.com' } })).data;
    const filled = await update(checkout.id, { id: checkout.id, line_items: [line(ids.TEN!, 3)], fulfillment: fulfillment() });
    assert.equal(filled.statusCode, 200, filled.body);
    assert.equal(filled.data.status, 'ready_for_complete');
    assert.deepEqual(filled.data.line_items.map((item: any) => [item.id, item.quantity]), [[ids.TEN, 3]]);
    assert.equal(filled.data.buyer, undefined, 'the buyer was left out');
    assert.deepEqual(filled.data.totals.at(-1), { type: 'total', amount: 520 });

    const moved = await update(checkout.id, { line_items: [line(ids.OIL!, 1)], fulfillment: fulfillment('sandbox_standard', { ...DESTINATION, address_country: 'de' }) });
    assert.equal(moved.data.line_items[0].item.price, 1750, 'a German destination prices it in reg_eu');
    assert.deepEqual(moved.data.context, { address_country: 'DE', currency: 'EUR', language: 'en' });

    const cleared = await update(checkout.id, { line_items: [line(ids.OIL!, 1)] });
    assert.equal(cleared.data.status, 'incomplete');
    assert.equal(cleared.data.fulfillment.methods[0].groups[0].selected_option_id, null);
    assert.equal(cleared.data.fulfillment.methods[0].destinations, undefined);
  });

  it('complete_checkout: a declined token leaves the checkout open with payment_failed; an approved one completes it into an order', async () => {
    const checkout = await ready();
    const orders = await orderCount(testApp);
    const declined = await complete(checkout.id, pay('tok_sandbox_decline_insufficient_funds'));
    assert.equal(declined.statusCode, 200, declined.body);
    assert.equal(declined.data.status, 'ready_for_complete');
    assert.deepEqual(declined.data.messages.map((message: any) => [message.type, message.code, message.severity]), [['error', 'payment_failed', 'recoverable']]);
    assert.match(declined.data.messages[0].content, /insufficient funds/);
    assert.equal(declined.data.order, undefined);
    assert.equal(await orderCount(testApp), orders);
    assert.equal((await get(checkout.id)).data.messages, undefined, 'the decline is not kept');

    const approved = await complete(checkout.id, pay('tok_sandbox_success'));
    assert.equal(approved.statusCode, 200, approved.body);
    const completed = approved.data;
    assert.equal(completed.status, 'completed');
    assert.match(completed.order.id, /^sandbox_order_/);
    assert.equal(completed.order.permalink_url, `${testApp.config.publicBaseUrl}/ucp/v1/orders/${completed.order.id}`);
    assert.equal(completed.continue_url, undefined);
    assert.deepEqual(completed.totals, checkout.totals);
    assert.deepEqual((await get(checkout.id)).data, completed);

    const order = await shopper.rest('get_order', 'GET', `/orders/${completed.order.id}`, { token });
    assert.equal(order.statusCode, 200, order.body);
    assert.deepEqual(order.data.ucp, { version: VERSION, status: 'success', capabilities: { 'dev.ucp.shopping.order': [{ version: VERSION }] } });
    assert.equal(order.data.checkout_id, checkout.id);
    assert.deepEqual(order.data.totals, checkout.totals);
    assert.deepEqual(order.data.line_items.map((item: any) => [item.id, item.quantity.total, item.status]), [
      [ids.OIL, 2, 'processing'],
      [ids.TEN, 1, 'processing'],
    ]);
    assert.deepEqual([order.data.environment, order.data.simulated], ['sandbox', true]);

    const again = await complete(checkout.id, pay('tok_sandbox_success'));
    assert.deepEqual(again.data.messages.map((message: any) => message.code), ['not_modifiable']);
    assert.equal(await orderCount(testApp), orders + 1);
  });

  it('complete_checkout of a canceled checkout is the outcome not_modifiable; so are cancelling and updating it again', async () => {
    const checkout = await ready();
    const canceled = await cancel(checkout.id);
    assert.equal(canceled.statusCode, 200, canceled.body);
    assert.equal(canceled.data.status, 'canceled');
    assert.equal(canceled.data.continue_url, undefined);
    for (const response of [await complete(checkout.id, pay('tok_sandbox_success')), await cancel(checkout.id), await update(checkout.id, { line_items: [] })]) {
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.data.ucp.status, 'error');
      assert.deepEqual(response.data.messages.map((message: any) => [message.code, message.severity]), [['not_modifiable', 'unrecoverable']]);
      assert.match(response.data.messages[0].content, /canceled/);
    }
  });

  it('complete_checkout of a checkout with things to fix is the outcome listing them', async () => {
    const checkout = (await create({ line_items: [line(ids.OIL!, 1)] })).data;
    const response = await complete(checkout.id, pay('tok_sandbox_success'));
    assert.equal(response.data.ucp.status, 'error');
    assert.deepEqual(response.data.messages.map((message: any) => message.code), ['missing', 'missing']);
    assert.equal((await get(checkout.id)).data.status, 'incomplete');
  });

  describe('payment refusals: 400, nothing stored or echoed', () => {
    const cases: [string, object, string][] = [
      ['a real-looking card number in the credential', { payment: { instruments: [instrument('4242 4242 4242 4242')] } }, 'real_card_refused'],
      ['a card number elsewhere in the request', { payment: { instruments: [instrument('tok_sandbox_success', { display: { description: '4000-0566-5566-5556' } })] } }, 'real_card_refused'],
      ['a token the sandbox does not know', pay('tok_visa_4242'), 'unknown_instrument'],
      ['an instrument of another handler', { payment: { instruments: [{ ...instrument('tok_sandbox_success'), handler_id: 'gpay' }] } }, 'unknown_instrument'],
      ['several instruments, none selected', { payment: { instruments: [instrument('tok_sandbox_success'), { ...instrument('tok_sandbox_success'), id: 'instr_2' }] } }, 'invalid_request'],
      ['no instrument', { payment: { instruments: [] } }, 'invalid_request'],
    ];
    for (const [what, body, code] of cases) {
      it(`${what}: ${code}`, async () => {
        const checkout = await ready();
        const response = await complete(checkout.id, body);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.data.code, code);
        assert.doesNotMatch(response.body, /4242|5556/);
        assert.equal((await get(checkout.id)).data.status, 'ready_for_complete');
      });
    }
  });

  it('cart_id: the checkout of a cart, with its lines; the open checkout of the cart is answered again', async () => {
    const cart = (await shopper.rest('create_cart', 'POST', '/carts', { token, body: { line_items: [line(ids.TEN!, 4)], context: { address_country: 'FR' } } })).data;
    const first = await create({ cart_id: cart.id, line_items: [], fulfillment: fulfillment() });
    assert.equal(first.statusCode, 201, first.body);
    assert.deepEqual(first.data.line_items.map((item: any) => [item.id, item.quantity]), [[ids.TEN, 4]]);
    assert.equal(first.data.status, 'ready_for_complete');
    const second = await create({ cart_id: cart.id, line_items: [line(ids.OIL!, 1)] });
    assert.equal(second.data.id, first.data.id);
    const unknown = await create({ cart_id: 'sandbox_cart_000000000000000000000000', line_items: [] });
    assert.equal(unknown.statusCode, 200, unknown.body);
    assert.equal(unknown.data.messages[0].code, 'not_found');
  });

  it('a platform without the extensions: no fulfillment, discounts or consent, read or answered', async () => {
    const response = await create(
      { line_items: [line(ids.OIL!, 1)], buyer: { email: 'ada@example.com', consent: { marketing: true } }, fulfillment: fulfillment(), discounts: { codes: ['X'] } },
      { profile: 'plain' },
    );
    assert.equal(response.statusCode, 201, response.body);
    assert.deepEqual(Object.keys(response.data.ucp.capabilities), [CHECKOUT]);
    assert.deepEqual(response.data.buyer, { email: 'ada@example.com' });
    assert.equal(response.data.fulfillment, undefined);
    assert.equal(response.data.discounts, undefined);
    assert.equal(response.data.status, 'incomplete', 'the destination was not read');
    assert.deepEqual(response.data.messages.map((message: any) => message.path), ['$.fulfillment.methods[0].destinations', '$.fulfillment.methods[0].groups[0].selected_option_id']);
  });

  it("another key's checkout and order, and ids that name none, are not_found", async () => {
    const checkout = await ready();
    const { order } = (await complete(checkout.id, pay('tok_sandbox_success'))).data;
    const other = await testApp.newKey();
    const answers = [
      await get(checkout.id, { token: other }),
      await complete(checkout.id, pay('tok_sandbox_success'), { token: other }),
      await get('sandbox_checkout_000000000000000000000000'),
      await shopper.rest('get_order', 'GET', `/orders/${order.id}`, { token: other }),
      await shopper.rest('get_order', 'GET', '/orders/nonsense', { token }),
    ];
    for (const response of answers) {
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.data.ucp.status, 'error');
      assert.deepEqual(response.data.messages.map((message: any) => [message.code, message.severity]), [['not_found', 'unrecoverable']]);
      assert.doesNotMatch(response.body, /olive/);
    }
  });

  it("another key can neither change nor cancel a checkout, nor check out a cart, of this key's", async () => {
    const checkout = await ready();
    const cart = (await shopper.rest('create_cart', 'POST', '/carts', { token, body: { line_items: [line(ids.OIL!, 1)] } })).data;
    const other = await testApp.newKey();
    const before = await checkoutCount();
    const answers = [
      await shopper.rest('update_checkout', 'PUT', `/checkout-sessions/${checkout.id}`, { token: other, body: { line_items: [line(ids.TEN!, 1)] } }),
      await shopper.rest('cancel_checkout', 'POST', `/checkout-sessions/${checkout.id}/cancel`, { token: other }),
      await create({ cart_id: cart.id, line_items: [] }, { token: other }),
    ];
    for (const response of answers) {
      assert.equal(response.statusCode, 200, response.body);
      assert.deepEqual(response.data.messages.map((message: any) => [message.code, message.severity]), [['not_found', 'unrecoverable']]);
      assert.doesNotMatch(response.body, /olive/);
    }
    assert.equal(await checkoutCount(), before);
    assert.deepEqual((await get(checkout.id)).data, checkout, 'the checkout is as it was');
  });

  it('401 without a key, and with a key lacking checkout:create', async () => {
    const cartOnly = await testApp.newKey(['cart:write']);
    for (const key of [undefined, cartOnly]) {
      const created = await create({ line_items: [] }, { token: key });
      assert.equal(created.statusCode, 401, created.body);
      const order = await shopper.rest('get_order', 'GET', '/orders/sandbox_order_000000000000000000000000', { token: key });
      assert.equal(order.statusCode, 401, order.body);
    }
  });

  describe('bad input: 400 invalid_request, never a 500', () => {
    const cases: [string, unknown][] = [
      ['no body', undefined],
      ['no line_items', { buyer: {} }],
      ['a pickup method', { line_items: [], fulfillment: { methods: [{ type: 'pickup' }] } }],
      ['two methods', { line_items: [], fulfillment: { methods: [{ type: 'shipping' }, { type: 'shipping' }] } }],
      ['a destination without a country', { line_items: [], fulfillment: { methods: [{ type: 'shipping', destinations: [{ street_address: 'x' }] }] } }],
      ['a destination country that is not two letters', { line_items: [], fulfillment: fulfillment('sandbox_standard', { ...DESTINATION, address_country: 'Italy' }) }],
      ['a selected destination that is none of them', { line_items: [], fulfillment: { methods: [{ type: 'shipping', destinations: [{ id: 'a', ...DESTINATION }], selected_destination_id: 'b' }] } }],
      ['an option that is not offered', { line_items: [line('x', 1)], fulfillment: fulfillment('express') }],
      ['consent that is not a boolean', { line_items: [], buyer: { consent: { marketing: 'yes' } } }],
      ['a line quantity of 0', { line_items: [line('x', 0)] }],
      ['quantities of one variant adding up above 99', { line_items: [line('x', 60), line('x', 40)] }],
      ['a market whose currency the sandbox does not sell in', { line_items: [], context: { address_country: 'JP' } }],
    ];
    for (const [what, body] of cases) {
      it(`create_checkout: ${what}`, async () => {
        const response = await create(body);
        assert.equal(response.statusCode, 400, response.body);
        assert.equal(response.data.code, 'invalid_request');
      });
    }

    it('update_checkout naming another checkout; complete_checkout without payment', async () => {
      const checkout = await ready();
      const other = await update(checkout.id, { id: 'sandbox_checkout_000000000000000000000000', line_items: [] });
      assert.equal(other.statusCode, 400, other.body);
      const unpaid = await complete(checkout.id, {});
      assert.equal(unpaid.statusCode, 400, unpaid.body);
      assert.equal(unpaid.data.code, 'invalid_request');
      assert.match(unpaid.data.content, /payment/);
    });
  });
});
