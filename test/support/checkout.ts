import assert from 'node:assert/strict';
import type { SandboxPrincipal } from '../../src/sandbox/auth.js';
import type { CheckoutAddress } from '../../src/sandbox/checkout/checkout-store.js';
import { SandboxRefusalError, type SandboxRefusal } from '../../src/sandbox/refusals.js';
import type { TestApp } from './test-app.js';

/**
 * The sandbox's protocol-neutral checkout has no HTTP surface of its own: the protocol
 * adapters call it. Its tests call it as they will, through the app's own services
 * (`app.sandbox.checkouts`, `app.sandbox.protocolCarts`), with the principal a real key
 * authenticates as.
 */
export function principalOf(testApp: TestApp, token: string): Promise<SandboxPrincipal> {
  return testApp.app.sandbox.authenticate(`Bearer ${token}`, '127.0.0.1');
}

/** Asserts that `call` is refused and returns the refusal, its message checked for leaks. */
export async function refusalOf(call: Promise<unknown>): Promise<SandboxRefusal & { message: string }> {
  const error = await call.then(
    (value) => assert.fail(`expected a refusal, got ${JSON.stringify(value)}`),
    (error: unknown) => error,
  );
  assert.ok(error instanceof SandboxRefusalError, String(error));
  assert.doesNotMatch(error.message, /SELECT |INSERT |UPDATE |sqlite|postgres/i);
  return { ...error.refusal, message: error.message };
}

/** VALID_ADDRESS (support/sandbox.ts) in the checkout's address fields. */
export const CHECKOUT_ADDRESS: CheckoutAddress = {
  name: 'Ada Lovelace',
  line_one: 'Via Roma 1',
  city: 'Milano',
  country: 'it',
  postal_code: '20121',
};

export const APPROVED = { token: 'tok_sandbox_success', credential: { type: 'sandbox_token', token: 'tok_sandbox_success' } };

export async function orderCount(testApp: TestApp): Promise<number> {
  const row = await testApp.store.db.selectFrom('sandbox_orders').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow();
  return Number(row.n);
}
