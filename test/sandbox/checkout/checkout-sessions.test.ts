import assert from 'node:assert/strict';
import { before, describe, test } from 'node:test';
import type { SandboxPrincipal } from '../../../src/sandbox/auth.js';
import type { CheckoutSessionService } from '../../../src/sandbox/checkout/checkout-service.js';
import { adminClient, withAdmin } from '../../support/admin.js';
import { APPROVED, CHECKOUT_ADDRESS, orderCount, principalOf, refusalOf } from '../../support/checkout.js';
import { SANDBOX_PRODUCTS } from '../../support/sandbox.js';
import { useTestApp } from '../../support/test-app.js';

const SKUS = ['OIL', 'TEN', 'TWENTY', 'SOLD-OUT', 'BACKORDER', 'DRAFT', 'WEIGHTED'] as const;

describe('sandbox checkout sessions', () => {
  const sandbox = useTestApp(withAdmin({ catalog: SANDBOX_PRODUCTS }));
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(sandbox)(...args);
  const ids: Record<string, string> = {};
  let checkouts: CheckoutSessionService;
  let principal: SandboxPrincipal;
  before(async () => {
    for (const sku of SKUS) ids[sku] = await sandbox.variantId(sku);
    checkouts = sandbox.app.sandbox.checkouts;
    principal = await principalOf(sandbox, await sandbox.newKey());
  });

  /** A session ready to complete: two oils and a ten-cent item, an Italian address, standard shipping. */
  const readySession = (who = principal) =>
    checkouts.create(who, {
      lines: [
        { variant_id: ids.OIL!, quantity: 2 },
        { variant_id: ids.TEN!, quantity: 1 },
      ],
      shipping_address: CHECKOUT_ADDRESS,
      fulfillment_option_id: 'sandbox_standard',
    });

  test('a session goes from incomplete to ready as it is filled in, priced in minor units from the live catalog', async () => {
    const created = await checkouts.create(principal, { lines: [{ variant_id: ids.OIL!, quantity: 2 }] });
    assert.match(created.id, /^sandbox_checkout_[0-9a-f]{24}$/);
    assert.equal(created.status, 'incomplete');
    assert.equal(created.environment, 'sandbox');
    assert.equal(created.simulated, true);
    assert.equal(created.currency, 'EUR');
    assert.deepEqual(created.market, { locale: 'en', country: 'IT', currency: 'EUR', region_id: 'reg_it' });
    assert.deepEqual(created.lines, [
      {
        variant_id: ids.OIL,
        quantity: 2,
        item: { product_id: created.lines[0]!.item!.product_id, product_handle: 'olive-oil', sku: 'OIL', title: 'olive oil', variant_display_name: null, image_url: null },
        unit_price: 1650,
        line_total: 3300,
      },
    ]);
    assert.deepEqual(created.problems, [
      { kind: 'missing', field: 'shipping_address' },
      { kind: 'missing', field: 'fulfillment_option' },
    ]);
    assert.deepEqual(created.fulfillment_options, [{ id: 'sandbox_standard', title: 'Standard shipping (simulated)', amount: 490, currency: 'EUR' }]);
    assert.deepEqual(created.totals, { subtotal: 3300, fulfillment: 0, total: 3300 });
    assert.equal(created.expires_at, principal.expiresAt!.toISOString());

    const addressed = await checkouts.update(principal, created.id, { shipping_address: { ...CHECKOUT_ADDRESS, city: ' ' }, buyer: { email: 'ada@example.com' } });
    assert.equal(addressed.shipping_address!.country, 'IT');
    assert.deepEqual(addressed.buyer, { email: 'ada@example.com' });
    assert.deepEqual(addressed.problems, [
      { kind: 'missing', field: 'shipping_address.city' },
      { kind: 'missing', field: 'fulfillment_option' },
    ]);

    // An address in Germany moves the session to the reg_eu market, as it moves a cart.
    const ready = await checkouts.update(principal, created.id, { shipping_address: { ...CHECKOUT_ADDRESS, country: 'DE' }, fulfillment_option_id: 'sandbox_standard' });
    assert.equal(ready.status, 'ready_for_complete');
    assert.deepEqual(ready.problems, []);
    assert.equal(ready.market?.region_id, 'reg_eu');
    assert.deepEqual(ready.totals, { subtotal: 3500, fulfillment: 490, total: 3990 });
    assert.equal(ready.selected_fulfillment_option_id, 'sandbox_standard');
    assert.deepEqual(ready.buyer, { email: 'ada@example.com' }, 'an absent field stays as it was');
    assert.deepEqual(await checkouts.get(principal, created.id), ready);

    const cleared = await checkouts.update(principal, created.id, { buyer: null, fulfillment_option_id: null });
    assert.equal(cleared.buyer, undefined);
    assert.deepEqual(cleared.problems, [{ kind: 'missing', field: 'fulfillment_option' }]);
  });

  test('completion creates a simulated order owned by the key, and the session answers it from then on', async () => {
    const session = await readySession();
    const seen: unknown[] = [];
    const { session: completed, order } = await checkouts.complete(principal, session.id, APPROVED, {
      onOrder: async (trx, made) => {
        // Inside the completion's transaction: the order is stored there already.
        const row = await trx.selectFrom('sandbox_orders').select('checkout_id').where('id', '=', made.id).executeTakeFirst();
        seen.push(row?.checkout_id, made);
      },
    });
    assert.ok(order);
    assert.match(order.id, /^sandbox_order_[0-9a-f]{24}$/);
    assert.deepEqual(seen, [session.id, order]);
    assert.equal(completed.status, 'completed');
    assert.equal(completed.order_id, order.id);
    assert.deepEqual(completed.problems, []);
    assert.deepEqual(completed.totals, session.totals);
    assert.deepEqual(completed.lines, session.lines);
    assert.deepEqual(order, {
      id: order.id,
      checkout_id: session.id,
      environment: 'sandbox',
      simulated: true,
      currency: 'EUR',
      market: session.market,
      lines: session.lines,
      shipping_address: { ...CHECKOUT_ADDRESS, country: 'IT' },
      fulfillment_option: session.fulfillment_options[0],
      totals: { subtotal: 3310, fulfillment: 490, total: 3800 },
      payment: { token: 'tok_sandbox_success' },
      created_at: order.created_at,
      expires_at: session.expires_at,
    });
    assert.deepEqual(await checkouts.getOrder(principal, order.id), order);
    assert.deepEqual(await checkouts.get(principal, session.id), completed);
  });

  test("another key's sessions and orders are not found, exactly like missing ones", async () => {
    const other = await principalOf(sandbox, await sandbox.newKey());
    const session = await readySession();
    const { order } = await checkouts.complete(principal, session.id, APPROVED);
    const open = await readySession();
    const notFound = { kind: 'not_found', resource: 'checkout', id: open.id };
    for (const call of [
      () => checkouts.get(other, open.id),
      () => checkouts.update(other, open.id, { buyer: { email: 'x@example.com' } }),
      () => checkouts.complete(other, open.id, APPROVED),
      () => checkouts.cancel(other, open.id),
    ]) {
      const { message, ...refusal } = await refusalOf(call());
      assert.deepEqual(refusal, notFound);
      assert.equal(message, `No checkout ${open.id} belongs to this key.`);
    }
    assert.deepEqual((await refusalOf(checkouts.getOrder(other, order!.id))).kind, 'not_found');
    assert.deepEqual((await refusalOf(checkouts.get(principal, 'sandbox_checkout_000000000000000000000000'))).kind, 'not_found');
    assert.deepEqual((await refusalOf(checkouts.get(principal, "x' OR 1=1 --"))).kind, 'not_found');
    assert.equal((await checkouts.get(principal, open.id)).status, 'ready_for_complete', 'untouched by the other key');
  });

  test('a key without the checkout scope is refused', async () => {
    const cartOnly = await principalOf(sandbox, await sandbox.newKey(['cart:write']));
    const refusal = await refusalOf(checkouts.create(cartOnly, {}));
    assert.deepEqual({ ...refusal, message: undefined }, { kind: 'insufficient_scope', scope: 'checkout:create', message: undefined });
  });

  test('unknown, out-of-stock, unpriced and unpublished items are problems of their lines, left out of the totals', async () => {
    const session = await checkouts.create(principal, {
      lines: [
        { variant_id: ids.OIL!, quantity: 1 },
        { variant_id: 'no-such-variant', quantity: 1 },
        { variant_id: ids['SOLD-OUT']!, quantity: 1 },
        { variant_id: ids.DRAFT!, quantity: 1 },
        { variant_id: ids.BACKORDER!, quantity: 1 },
      ],
      shipping_address: CHECKOUT_ADDRESS,
      fulfillment_option_id: 'sandbox_standard',
    });
    assert.equal(session.status, 'incomplete');
    assert.deepEqual(session.problems, [
      { kind: 'unknown_item', line: { index: 1, variant_id: 'no-such-variant' } },
      { kind: 'out_of_stock', line: { index: 2, variant_id: ids['SOLD-OUT'] } },
      // A draft is never served, so it is as unknown as a variant that does not exist.
      { kind: 'unknown_item', line: { index: 3, variant_id: ids.DRAFT } },
    ]);
    assert.deepEqual(
      session.lines.map((line) => ('problem' in line ? [line.variant_id, line.problem, line.item?.sku ?? null] : [line.variant_id, line.unit_price])),
      [
        [ids.OIL, 1650],
        ['no-such-variant', 'unknown_item', null],
        [ids['SOLD-OUT'], 'out_of_stock', 'SOLD-OUT'],
        [ids.DRAFT, 'unknown_item', null],
        [ids.BACKORDER, 1000],
      ],
    );
    assert.deepEqual(session.totals, { subtotal: 2650, fulfillment: 490, total: 3140 });
    const notReady = await refusalOf(checkouts.complete(principal, session.id, APPROVED));
    assert.equal(notReady.kind, 'not_ready');
    assert.deepEqual(notReady.kind === 'not_ready' && notReady.problems, session.problems);

    // Every EUR-only variant has no price in a GBP session.
    const pounds = await checkouts.create(principal, { country: 'GB', lines: [{ variant_id: ids.TEN!, quantity: 1 }, { variant_id: ids.OIL!, quantity: 1 }] });
    assert.equal(pounds.currency, 'GBP');
    assert.deepEqual(pounds.problems[0], { kind: 'not_priced', line: { index: 0, variant_id: ids.TEN } });
    assert.equal(pounds.totals.subtotal, 1420);

    // Unpublishing a product makes its lines `unpublished`: they were offered when they were put in.
    const twenty = await checkouts.create(principal, { lines: [{ variant_id: ids.TWENTY!, quantity: 3 }], shipping_address: CHECKOUT_ADDRESS, fulfillment_option_id: 'sandbox_standard' });
    assert.equal(twenty.status, 'ready_for_complete');
    assert.equal((await admin('PATCH', '/admin/v1/products/cents', { status: 'draft' })).statusCode, 200);
    try {
      const withdrawn = await checkouts.get(principal, twenty.id);
      assert.equal(withdrawn.status, 'incomplete');
      assert.deepEqual(withdrawn.problems, [{ kind: 'unpublished', line: { index: 0, variant_id: ids.TWENTY } }]);
      assert.deepEqual(withdrawn.lines, [{ variant_id: ids.TWENTY, quantity: 3, item: null, problem: 'unpublished' }]);
      // Kept through a change that keeps the line; a line never offered stays unknown.
      const kept = await checkouts.update(principal, twenty.id, { lines: [{ variant_id: ids.TWENTY!, quantity: 1 }, { variant_id: ids.DRAFT!, quantity: 1 }] });
      assert.deepEqual(kept.problems.map((problem) => problem.kind), ['unpublished', 'unknown_item']);
    } finally {
      assert.equal((await admin('PATCH', '/admin/v1/products/cents', { status: 'published' })).statusCode, 200);
    }
    const fixed = await checkouts.update(principal, session.id, { lines: [{ variant_id: ids.OIL!, quantity: 1 }] });
    assert.equal(fixed.status, 'ready_for_complete');
  });

  test('lines naming the same variant are added up; bounds, options and markets are refused by kind', async () => {
    const merged = await checkouts.create(principal, {
      lines: [
        { variant_id: ids.TEN!, quantity: 40 },
        { variant_id: ids.OIL!, quantity: 1 },
        { variant_id: ids.TEN!, quantity: 59 },
      ],
    });
    assert.deepEqual(merged.lines.map((line) => [line.variant_id, line.quantity]), [[ids.TEN, 99], [ids.OIL, 1]]);

    const cases: [() => Promise<unknown>, object][] = [
      [() => checkouts.update(principal, merged.id, { lines: [{ variant_id: ids.TEN!, quantity: 99 }, { variant_id: ids.TEN!, quantity: 1 }] }), { kind: 'quantity_out_of_range', variantId: ids.TEN, quantity: 100, max: 99 }],
      [() => checkouts.create(principal, { lines: [{ variant_id: ids.TEN!, quantity: 0 }] }), { kind: 'quantity_out_of_range', variantId: ids.TEN, quantity: 0, max: 99 }],
      [() => checkouts.create(principal, { lines: Array.from({ length: 101 }, () => ({ variant_id: ids.TEN!, quantity: 1 })) }), { kind: 'too_many_lines', given: 101, max: 100 }],
      [() => checkouts.update(principal, merged.id, { fulfillment_option_id: 'express' }), { kind: 'unknown_fulfillment_option', optionId: 'express', offered: ['sandbox_standard'] }],
      [() => checkouts.create(principal, { country: 'SE' }), { kind: 'invalid_market', parameter: 'country', malformed: false, accepted: ['IT', 'DE', 'FR', 'GB', 'US', 'JP'] }],
      [() => checkouts.create(principal, { country: 'DE', currency: 'GBP' }), { kind: 'invalid_market', parameter: 'currency', malformed: false, accepted: ['EUR'] }],
      [() => checkouts.create(principal, { country: 'JP' }), { kind: 'unsupported_currency', currency: 'JPY', supported: ['EUR', 'GBP', 'USD'] }],
    ];
    for (const [call, expected] of cases) {
      const { message, ...refusal } = await refusalOf(call());
      assert.deepEqual(refusal, expected, message);
    }
    assert.deepEqual((await checkouts.get(principal, merged.id)).lines, merged.lines, 'a refused update changes nothing');
  });

  test('requireSellableLine: lines none of which can be bought make no session, refused before anything is written', async () => {
    const sessions = async () => Number((await sandbox.store.db.selectFrom('sandbox_checkouts').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
    const before = await sessions();
    const unsellable = [
      { variant_id: ids['SOLD-OUT']!, quantity: 1 },
      { variant_id: ids.DRAFT!, quantity: 2 },
    ];
    const { message, ...refusal } = await refusalOf(checkouts.create(principal, { lines: unsellable, requireSellableLine: true }));
    assert.deepEqual(refusal, {
      kind: 'nothing_sellable',
      resource: 'checkout',
      lines: [
        { variant_id: ids['SOLD-OUT'], problem: 'out_of_stock' },
        { variant_id: ids.DRAFT, problem: 'unknown_item' },
      ],
    });
    assert.match(message, /no checkout was created/);
    assert.equal(await sessions(), before);

    // One line that can be bought, or no lines at all, make a session; so does the same call without the option.
    const mixed = await checkouts.create(principal, { lines: [...unsellable, { variant_id: ids.OIL!, quantity: 1 }], requireSellableLine: true });
    assert.deepEqual(mixed.lines.map((line) => 'problem' in line), [true, true, false]);
    assert.deepEqual((await checkouts.create(principal, { lines: [], requireSellableLine: true })).lines, []);
    assert.equal((await checkouts.create(principal, { lines: unsellable })).status, 'incomplete');
    assert.equal(await sessions(), before + 3);
  });

  test('a declined payment is an answer: no order, the session stays ready, and another instrument completes it', async () => {
    const session = await readySession();
    for (const reason of ['generic', 'insufficient_funds', 'expired_card'] as const) {
      const token = `tok_sandbox_decline_${reason}`;
      const declined = await checkouts.complete(principal, session.id, { token, credential: { type: 'sandbox_token', token } });
      assert.equal(declined.order, null);
      assert.equal(declined.session.status, 'ready_for_complete');
      assert.deepEqual(declined.session.problems, [{ kind: 'payment_declined', reason }]);
      assert.deepEqual({ ...declined.session, problems: [] }, session);
    }
    const before = await orderCount(sandbox);
    assert.deepEqual(await checkouts.get(principal, session.id), session, 'a decline is not stored');
    const { order } = await checkouts.complete(principal, session.id, APPROVED);
    assert.ok(order);
    assert.equal(await orderCount(sandbox), before + 1);
  });

  test('a real-looking card number anywhere in the payment is refused, never stored and never repeated', async () => {
    const session = await readySession();
    const cards = ['4242 4242 4242 4242', '4000-0566-5566-5556', '5555555555554444', '378282246310005'];
    const payments = [
      ...cards.map((number) => ({ token: 'tok_sandbox_success', credential: { type: 'card', card: { number, expiry_month: 12 } } })),
      { token: 'tok_sandbox_success', credential: [{ note: `exp 12/30 ${cards[0]}` }] },
      { token: 'tok_sandbox_success', credential: { [cards[2]!]: true } },
      { token: 'tok_sandbox_success', credential: { number: 4242424242424242 } },
      { token: cards[0]!, credential: {} },
    ];
    for (const payment of payments) {
      const { message, ...refusal } = await refusalOf(checkouts.complete(principal, session.id, payment));
      assert.equal(refusal.kind, 'real_card_refused', JSON.stringify(payment));
      assert.doesNotMatch(message, /\d{4}/);
    }
    assert.equal((await checkouts.get(principal, session.id)).status, 'ready_for_complete');
    const rows = JSON.stringify(await sandbox.store.db.selectFrom('sandbox_checkouts').selectAll().execute());
    for (const number of cards) assert.ok(!rows.includes(number) && !rows.includes(number.replace(/\D/g, '')));

    // Digits that are no card number (a failed Luhn check, too few, one long group) are not refused for it.
    for (const credential of [{ number: '4242 4242 4242 4241' }, { order: '123456789012' }, { reference: '42424242424242424242424' }]) {
      assert.equal((await refusalOf(checkouts.complete(principal, session.id, { token: 'tok_unknown', credential }))).kind, 'unknown_instrument');
    }
    const unknown = await refusalOf(checkouts.complete(principal, session.id, { token: 'tok_live_abc', credential: {} }));
    assert.deepEqual({ ...unknown, message: undefined }, {
      kind: 'unknown_instrument',
      accepted: ['tok_sandbox_success', 'tok_sandbox_decline_generic', 'tok_sandbox_decline_insufficient_funds', 'tok_sandbox_decline_expired_card'],
      message: undefined,
    });
    assert.doesNotMatch(unknown.message, /tok_live_abc/);
  });

  test('completed and canceled sessions no longer change, complete or cancel', async () => {
    const canceledSession = await readySession();
    const canceled = await checkouts.cancel(principal, canceledSession.id);
    assert.equal(canceled.status, 'canceled');
    assert.deepEqual(canceled.problems, []);
    assert.deepEqual(await checkouts.get(principal, canceledSession.id), canceled);

    const completedSession = await readySession();
    await checkouts.complete(principal, completedSession.id, APPROVED);
    const before = await orderCount(sandbox);
    for (const [id, status] of [
      [canceledSession.id, 'canceled'],
      [completedSession.id, 'completed'],
    ] as const) {
      for (const call of [() => checkouts.complete(principal, id, APPROVED), () => checkouts.cancel(principal, id), () => checkouts.update(principal, id, { lines: [] })]) {
        const { message, ...refusal } = await refusalOf(call());
        assert.deepEqual(refusal, { kind: 'not_modifiable', status });
        assert.equal(message, `Checkout ${id} is ${status} and can no longer change.`);
      }
    }
    assert.equal(await orderCount(sandbox), before);
  });

  test('two completions at once make one order; concurrent changes all land', async () => {
    const session = await readySession();
    const before = await orderCount(sandbox);
    const outcomes = await Promise.allSettled([checkouts.complete(principal, session.id, APPROVED), checkouts.complete(principal, session.id, APPROVED)]);
    const completed = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    const refused = outcomes.filter((outcome) => outcome.status === 'rejected');
    assert.equal(completed.length, 1);
    assert.deepEqual((await refusalOf(Promise.reject(refused[0]!.reason))).kind, 'not_modifiable');
    assert.equal(await orderCount(sandbox), before + 1);

    const open = await checkouts.create(principal, {});
    await Promise.all([
      checkouts.update(principal, open.id, { buyer: { email: 'ada@example.com' } }),
      checkouts.update(principal, open.id, { shipping_address: CHECKOUT_ADDRESS }),
      checkouts.update(principal, open.id, { fulfillment_option_id: 'sandbox_standard' }),
      checkouts.update(principal, open.id, { lines: [{ variant_id: ids.OIL!, quantity: 1 }] }),
    ]);
    const landed = await checkouts.get(principal, open.id);
    assert.equal(landed.status, 'ready_for_complete');
    assert.deepEqual(landed.buyer, { email: 'ada@example.com' });
  });

  test('completion and its onOrder hook commit together: a failing hook leaves no order and the session open', async () => {
    const session = await readySession();
    const before = await orderCount(sandbox);
    await assert.rejects(
      checkouts.complete(principal, session.id, APPROVED, {
        onOrder: async (trx, order) => {
          await trx.insertInto('change_log_readers').values({ name: `test-${order.id}`, seq: 1 }).execute();
          throw new Error('the outbox is full');
        },
      }),
      /the outbox is full/,
    );
    assert.equal(await orderCount(sandbox), before);
    assert.equal((await sandbox.store.db.selectFrom('change_log_readers').select('name').where('name', 'like', 'test-%').execute()).length, 0);
    assert.equal((await checkouts.get(principal, session.id)).status, 'ready_for_complete');
    assert.ok((await checkouts.complete(principal, session.id, APPROVED)).order);
  });

  test('an order keeps the prices it was bought at; open sessions follow the catalog', async () => {
    const session = await readySession();
    const { order } = await checkouts.complete(principal, session.id, APPROVED);
    const open = await readySession();
    const repriced = await admin('PATCH', `/admin/v1/variants/${ids.OIL}`, { prices: [{ currency: 'EUR', amount: 1999 }] });
    assert.equal(repriced.statusCode, 200, repriced.body);
    try {
      assert.deepEqual(await checkouts.getOrder(principal, order!.id), order);
      const completed = await checkouts.get(principal, session.id);
      assert.deepEqual([completed.lines[0]!.variant_id, 'unit_price' in completed.lines[0]! && completed.lines[0].unit_price], [ids.OIL, 1650]);
      assert.deepEqual(completed.totals, order!.totals);
      const live = await checkouts.get(principal, open.id);
      assert.deepEqual(live.totals, { subtotal: 2 * 1999 + 10, fulfillment: 490, total: 2 * 1999 + 10 + 490 });
      const { order: later } = await checkouts.complete(principal, open.id, APPROVED);
      assert.equal(later!.totals.total, 2 * 1999 + 10 + 490);
    } finally {
      await admin('PATCH', `/admin/v1/variants/${ids.OIL}`, { prices: [{ currency: 'EUR', amount: 1650 }] });
    }
  });
});
