import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import { HttpProblem } from '../../src/http/problem.js';
import type { SandboxPrincipal } from '../../src/sandbox/auth.js';
import type { SandboxCartService } from '../../src/sandbox/cart-service.js';
import type { ProtocolCartView } from '../../src/sandbox/cart-views.js';
import { principalOf, refusalOf } from '../support/checkout.js';
import { assertSandboxError, SANDBOX_PRODUCTS, VALID_ADDRESS } from '../support/sandbox.js';
import { useTestApp } from '../support/test-app.js';

/** The cart operations the protocol adapters use (UCP's create, update and cancel of a cart), and the carts as they render them. */
describe('sandbox carts for protocol adapters', () => {
  const sandbox = useTestApp({ catalog: SANDBOX_PRODUCTS });
  const ids: Record<string, string> = {};
  let carts: SandboxCartService<ProtocolCartView>;
  let token: string;
  let principal: SandboxPrincipal;
  before(async () => {
    for (const sku of ['OIL', 'TEN', 'SOLD-OUT', 'DRAFT']) ids[sku] = await sandbox.variantId(sku);
    carts = sandbox.app.sandbox.protocolCarts;
    token = await sandbox.newKey();
    principal = await principalOf(sandbox, token);
  });

  const problemOf = async (call: Promise<unknown>, status: number, code: string) => {
    const error = await call.then(() => assert.fail('expected a refusal'), (error: unknown) => error);
    assert.ok(error instanceof HttpProblem);
    assert.equal(error.statusCode, status);
    assert.equal(error.code, code);
    return error.message;
  };

  test('a cart opened with lines holds those it can sell, lists the others, and answers in minor units', async () => {
    const { cart, refused } = await carts.openCart(principal, { country: 'DE' }, [
      { variant_id: ids.OIL!, quantity: 1 },
      { variant_id: ids['SOLD-OUT']!, quantity: 2 },
      { variant_id: ids.OIL!, quantity: 2 },
      { variant_id: ids.DRAFT!, quantity: 1 },
    ]);
    assert.deepEqual(refused, [
      { variant_id: ids['SOLD-OUT'], quantity: 2, problem: 'out_of_stock' },
      { variant_id: ids.DRAFT, quantity: 1, problem: 'unknown_item' },
    ]);
    assert.deepEqual(cart, {
      id: cart.id,
      environment: 'sandbox',
      simulated: true,
      currency: 'EUR',
      market: { locale: 'en', country: 'DE', currency: 'EUR', region_id: 'reg_eu' },
      lines: [
        {
          variant_id: ids.OIL,
          quantity: 3,
          item: { product_id: cart.lines[0]!.item.product_id, product_handle: 'olive-oil', sku: 'OIL', title: 'olive oil', variant_display_name: null, image_url: null },
          unit_price: 1750,
          line_total: 5250,
        },
      ],
      fulfillment_options: [{ id: 'sandbox_standard', title: 'Standard shipping (simulated)', amount: 490, currency: 'EUR' }],
      totals: { subtotal: 5250, fulfillment: 0, total: 5250 },
    });
    // The same cart on the REST surface, in major units.
    const rest = await sandbox.call(token, 'GET', `/sandbox/v1/carts/${cart.id}`);
    assert.equal(rest.statusCode, 200);
    assert.equal(rest.data.totals.item_total, 52.5);
  });

  test('requireSellableLine: lines none of which can be sold make no cart, refused before anything is written', async () => {
    const cartCount = async () => Number((await sandbox.store.db.selectFrom('sandbox_carts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await cartCount();
    const unsellable = [
      { variant_id: ids['SOLD-OUT']!, quantity: 1 },
      { variant_id: ids.DRAFT!, quantity: 2 },
    ];
    const { message, ...refusal } = await refusalOf(carts.openCart(principal, {}, unsellable, { requireSellableLine: true }));
    assert.deepEqual(refusal, {
      kind: 'nothing_sellable',
      resource: 'cart',
      lines: [
        { variant_id: ids['SOLD-OUT'], problem: 'out_of_stock' },
        { variant_id: ids.DRAFT, problem: 'unknown_item' },
      ],
    });
    assert.match(message, /no cart was created/);
    assert.equal(await cartCount(), before);

    // One line that can be sold, or no lines at all, make a cart; so does the same call without the option.
    const mixed = await carts.openCart(principal, {}, [...unsellable, { variant_id: ids.OIL!, quantity: 1 }], { requireSellableLine: true });
    assert.deepEqual([mixed.cart.lines.length, mixed.refused.length], [1, 2]);
    assert.deepEqual((await carts.openCart(principal, {}, [], { requireSellableLine: true })).cart.lines, []);
    assert.deepEqual((await carts.openCart(principal, {}, unsellable)).cart.lines, []);
    assert.equal(await cartCount(), before + 3);
  });

  test('replacing the lines replaces them all at once, on the cart the REST routes serve', async () => {
    const { cart } = await carts.openCart(principal, {}, [{ variant_id: ids.OIL!, quantity: 1 }]);
    await carts.setShippingAddress(principal, cart.id, VALID_ADDRESS);
    const { cart: replaced, refused } = await carts.replaceItems(principal, cart.id, [
      { variant_id: ids.TEN!, quantity: 3 },
      { variant_id: 'no-such-variant', quantity: 1 },
    ]);
    assert.deepEqual(refused, [{ variant_id: 'no-such-variant', quantity: 1, problem: 'unknown_item' }]);
    assert.deepEqual(replaced.lines.map((line) => [line.variant_id, line.quantity, line.unit_price]), [[ids.TEN, 3, 10]]);
    assert.deepEqual(replaced.shipping_address, VALID_ADDRESS, 'only the lines are replaced');
    const rest = await sandbox.call(token, 'GET', `/sandbox/v1/carts/${cart.id}`);
    assert.deepEqual(rest.data.items, [{ variant_id: ids.TEN, quantity: 3, unit_price: 0.1 }]);

    const emptied = await carts.replaceItems(principal, cart.id, []);
    assert.deepEqual(emptied.cart.lines, []);
    const message = await problemOf(carts.replaceItems(principal, cart.id, [{ variant_id: ids.TEN!, quantity: 60 }, { variant_id: ids.TEN!, quantity: 40 }]), 400, 'sandbox_invalid_request');
    assert.equal(message, `The cart would hold 100 of variant ${ids.TEN}; at most 99 per variant.`);
  });

  test('cancelling a cart answers it as it was and deletes it: every later call is 404, on every surface', async () => {
    const { cart } = await carts.openCart(principal, {}, [{ variant_id: ids.OIL!, quantity: 2 }]);
    const other = await principalOf(sandbox, await sandbox.newKey());
    await problemOf(carts.cancelCart(other, cart.id), 404, 'sandbox_not_found');

    const canceled = await carts.cancelCart(principal, cart.id);
    assert.deepEqual(canceled, cart);
    assertSandboxError(await sandbox.call(token, 'GET', `/sandbox/v1/carts/${cart.id}`), 404, 'sandbox_not_found');
    await problemOf(carts.cancelCart(principal, cart.id), 404, 'sandbox_not_found');
    await problemOf(carts.getCart(principal, cart.id), 404, 'sandbox_not_found');
  });

  test('concurrent replacements and a cancellation never leave half a cart', async () => {
    const { cart } = await carts.openCart(principal, {}, []);
    const outcomes = await Promise.allSettled([
      carts.replaceItems(principal, cart.id, [{ variant_id: ids.OIL!, quantity: 1 }]),
      carts.replaceItems(principal, cart.id, [{ variant_id: ids.TEN!, quantity: 2 }]),
      carts.cancelCart(principal, cart.id),
    ]);
    assert.equal(outcomes[2]!.status, 'fulfilled');
    assert.equal(await sandbox.store.db.selectFrom('sandbox_carts').select('id').where('id', '=', cart.id).executeTakeFirst(), undefined);
    for (const outcome of outcomes.slice(0, 2)) {
      if (outcome.status === 'rejected') assert.ok(outcome.reason instanceof HttpProblem && outcome.reason.statusCode === 404);
    }
  });
});
