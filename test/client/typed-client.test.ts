import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before, describe, it } from 'node:test';
import { createVetrinaClient, type VetrinaClient, type VetrinaClientOptions } from '../../clients/typescript/src/index.js';
import { adminClient, withAdmin } from '../support/admin.js';
import { useTestApp } from '../support/test-app.js';

const ADDRESS = { name: 'Ada Lovelace', line_one: 'Via Roma 1', city: 'Milano', country: 'IT', postal_code: '20121' };
const ACP_VERSION = '2026-04-17';

/** What the client sent: method, path and query, and its Authorization header. */
interface Sent {
  method: string;
  url: string;
  authorization: string | null;
}

/**
 * @vetrina/client against the service listening on a port, as a storefront calls it:
 * the demo catalog, the sandbox and the change feed, over real HTTP.
 */
describe('the typed client (@vetrina/client) against a live server', () => {
  const testApp = useTestApp(withAdmin());
  let baseUrl = '';
  const sent: Sent[] = [];
  /** Real fetch, recording each request the client made. */
  const recordingFetch = (request: Request) => {
    const url = new URL(request.url);
    sent.push({ method: request.method, url: url.pathname + url.search, authorization: request.headers.get('authorization') });
    return fetch(request);
  };
  const client = (options: Pick<VetrinaClientOptions, 'sandboxKey' | 'market'> = {}): VetrinaClient =>
    createVetrinaClient({ baseUrl, fetch: recordingFetch, ...options });
  /** A purchasable, priced variant of the demo catalog in Italy, and its product's handle and SKU. */
  let buyable: { handle: string; variantId: string; sku: string };

  before(async () => {
    baseUrl = await testApp.app.listen({ port: 0, host: '127.0.0.1' });
    const { data } = await client().GET('/public/v1/products', { params: { query: { country: 'IT', available: true, limit: 1 } } });
    const product = data!.products[0]!;
    const variant = product.variants.find((candidate) => candidate.availability.purchasable && candidate.price !== null && candidate.sku !== null)!;
    buyable = { handle: product.handle, variantId: variant.id, sku: variant.sku! };
  });

  it('lists products in the market it was given; a parameter of the request wins over it', async () => {
    const british = client({ market: { country: 'GB', locale: 'it' } });
    const { data, error, response } = await british.GET('/public/v1/products', { params: { query: { limit: 2, sort: 'title' } } });
    assert.equal(response.status, 200, JSON.stringify(error));
    assert.deepEqual(data!.context, { locale: 'it', country: 'GB', currency: 'GBP', region_id: data!.context.region_id });
    assert.equal(data!.products.length, 2);
    assert.ok(data!.products.every((product) => product.price_range === null || product.price_range.currency === 'GBP'));
    assert.deepEqual(sent.at(-1), { method: 'GET', url: '/public/v1/products?limit=2&sort=title&country=GB&locale=it', authorization: null });

    const german = await british.GET('/public/v1/products', { params: { query: { limit: 1, country: 'DE' } } });
    assert.deepEqual([german.data!.context.country, german.data!.context.currency, german.data!.context.locale], ['DE', 'EUR', 'it']);

    // A wrong parameter is a type error, and the server refuses it with its documented error.
    // @ts-expect-error limit is a number
    const refused = await british.GET('/public/v1/products', { params: { query: { limit: 'ten' } } });
    assert.equal(refused.response.status, 400);
    assert.equal(refused.data, undefined);
    assert.equal(refused.error!.error.code, 'INVALID_QUERY');
  });

  it('reads one product by handle, and answers an unknown one with its 404 error', async () => {
    const italian = client({ market: { locale: 'it' } });
    const { data } = await italian.GET('/public/v1/products/{handle}', { params: { path: { handle: buyable.handle } } });
    assert.equal(data!.product.handle, buyable.handle);
    assert.equal(data!.context.locale, 'it');
    assert.ok(data!.product.variants.some((variant) => variant.id === buyable.variantId));

    const missing = await italian.GET('/public/v1/products/{handle}', { params: { path: { handle: 'no-such-product' } } });
    assert.equal(missing.response.status, 404);
    assert.equal(missing.error!.error.code, 'PRODUCT_NOT_FOUND');

    // @ts-expect-error the path's parameter is handle: without it the template is sent as it is, and refused
    const unnamed = await italian.GET('/public/v1/products/{handle}', { params: { path: { id: buyable.handle } } });
    assert.equal(unnamed.response.status, 400);
    assert.equal(unnamed.error!.error.code, 'INVALID_HANDLE');
  });

  it('looks several products up at once by SKU and variant id (repeated parameters), naming what it did not find', async () => {
    const { data } = await client({ market: { country: 'IT' } }).GET('/public/v1/lookup', {
      params: { query: { sku: [buyable.sku, 'NO-SUCH-SKU'], variant_id: [buyable.variantId] } },
    });
    assert.deepEqual(
      data!.matches.map((match) => [match.type, match.value, match.variant_id]).sort(),
      [
        ['sku', buyable.sku, buyable.variantId],
        ['variant_id', buyable.variantId, buyable.variantId],
      ],
    );
    assert.deepEqual(data!.not_found, [{ type: 'sku', value: 'NO-SUCH-SKU' }]);
    assert.deepEqual(
      data!.products.map((product) => product.handle),
      [buyable.handle],
    );
    assert.match(sent.at(-1)!.url, /[?&]sku=[^&]+&sku=NO-SUCH-SKU&variant_id=[^&]+&country=IT$/);
  });

  it('runs a sandbox cart to checkout with its key, sent only where an operation takes one', async () => {
    const keyAnswer = await client().POST('/sandbox/v1/keys', { body: { scopes: ['catalog:read', 'cart:write', 'checkout:create'] } });
    assert.equal(keyAnswer.response.status, 201);
    const sandbox = client({ sandboxKey: keyAnswer.data!.access_token, market: { country: 'IT' } });
    const from = sent.length;

    const cart = await sandbox.POST('/sandbox/v1/carts', { params: { header: { 'idempotency-key': randomUUID() } }, body: { currency: 'EUR' } });
    assert.equal(cart.response.status, 201, JSON.stringify(cart.error));
    const path = { id: cart.data!.id };
    const added = await sandbox.POST('/sandbox/v1/carts/{id}/items', { params: { path }, body: { variant_id: buyable.variantId, quantity: 2 } });
    assert.deepEqual(
      added.data!.items.map((item) => [item.variant_id, item.quantity]),
      [[buyable.variantId, 2]],
    );
    await sandbox.POST('/sandbox/v1/carts/{id}/shipping-address', { params: { path }, body: ADDRESS });
    const options = await sandbox.GET('/sandbox/v1/carts/{id}/shipping-options', { params: { path } });
    assert.deepEqual(
      options.data!.options.map((option) => option.id),
      ['sandbox_standard'],
    );
    await sandbox.POST('/sandbox/v1/carts/{id}/shipping-option', { params: { path }, body: { shipping_option_id: 'sandbox_standard' } });
    const checkout = await sandbox.POST('/sandbox/v1/carts/{id}/checkout', { params: { path, header: { 'idempotency-key': `checkout-${path.id}` } } });
    assert.equal(checkout.response.status, 200, JSON.stringify(checkout.error));
    assert.equal(checkout.data!.status, 'ready_for_checkout');
    assert.equal(checkout.data!.checkout_url, null);
    const { item_total, shipping_total, grand_total } = checkout.data!.totals;
    assert.ok(item_total > 0 && shipping_total > 0);
    assert.equal(grand_total, Number((item_total + shipping_total).toFixed(2)));

    // The key went with every cart call and with no catalog read.
    await sandbox.GET('/public/v1/products/{handle}', { params: { path: { handle: buyable.handle } } });
    const calls = sent.slice(from);
    assert.deepEqual(
      calls.map((call) => [call.method, call.authorization !== null]),
      [...calls.slice(0, -1).map((call) => [call.method, true]), ['GET', false]],
    );
    assert.ok(calls.slice(0, -1).every((call) => call.authorization === `Bearer ${keyAnswer.data!.access_token}`));

    // Without a key the same call is refused with the sandbox's 401.
    const anonymous = await client().POST('/sandbox/v1/carts', { params: { header: { 'idempotency-key': randomUUID() } } });
    assert.equal(anonymous.response.status, 401);
    assert.equal(anonymous.error!.error, 'sandbox_unauthorized');

    // @ts-expect-error a cart is created under an Idempotency-Key, which the server asks for too
    const unkeyed = await sandbox.POST('/sandbox/v1/carts', { body: { currency: 'EUR' } });
    assert.equal(unkeyed.response.status, 400);
    assert.equal(unkeyed.error!.error, 'sandbox_invalid_request');
  });

  it('completes a checkout session (ACP) with the sandbox key and a sandbox card token: completed, with its order', async () => {
    const key = (await client().POST('/sandbox/v1/keys', {})).data!.access_token;
    const agent = client({ sandboxKey: key });
    const headers = () => ({ 'api-version': ACP_VERSION, 'idempotency-key': randomUUID() });
    const created = await agent.POST('/acp/checkout_sessions', {
      params: { header: headers() },
      body: { currency: 'eur', capabilities: {}, line_items: [{ id: buyable.variantId }], fulfillment_details: { address: { ...ADDRESS, state: 'MI' } } },
    });
    assert.equal(created.response.status, 201, JSON.stringify(created.error));
    const path = { checkout_session_id: created.data!.id };
    const chosen = await agent.POST('/acp/checkout_sessions/{checkout_session_id}', {
      params: { header: headers(), path },
      body: { selected_fulfillment_options: [{ type: 'shipping', option_id: 'sandbox_standard', item_ids: [buyable.variantId] }] },
    });
    assert.equal(chosen.data!.status, 'ready_for_payment', JSON.stringify(chosen.data ?? chosen.error));
    const completed = await agent.POST('/acp/checkout_sessions/{checkout_session_id}/complete', {
      params: { header: headers(), path },
      body: { payment_data: { handler_id: 'sandbox_card', instrument: { type: 'card', credential: { type: 'sandbox_token', token: 'tok_sandbox_success' } } } },
    });
    assert.equal(completed.response.status, 200, JSON.stringify(completed.error));
    assert.equal(completed.data!.status, 'completed');
    assert.equal(completed.data!.order.checkout_session_id, created.data!.id);
  });

  it('follows the change feed: a change made through the admin API is read with since, rendered in the market', async () => {
    const feed = client({ market: { country: 'GB' } });
    const now = await feed.GET('/public/v1/changes');
    assert.deepEqual(now.data!.changes, []);
    const since = now.data!.next_cursor;

    const renamed = await adminClient(testApp)('PATCH', `/admin/v1/products/${buyable.handle}`, { translations: { en: { title: 'Renamed through the admin API' } } });
    assert.equal(renamed.statusCode, 200, renamed.body);

    const { data } = await feed.GET('/public/v1/changes', { params: { query: { since, limit: 20, locale: 'en' } } });
    assert.deepEqual(
      data!.changes.map((change) => [change.handle, change.kinds]),
      [[buyable.handle, ['content']]],
    );
    assert.equal(data!.changes[0]!.product!.title, 'Renamed through the admin API');
    assert.equal(data!.context.currency, 'GBP');
    assert.equal(data!.has_more, false);

    const after = await feed.GET('/public/v1/changes', { params: { query: { since: data!.next_cursor } } });
    assert.deepEqual(after.data!.changes, []);
  });
});
