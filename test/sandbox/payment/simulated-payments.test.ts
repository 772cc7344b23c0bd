import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { containsCardNumber, holdsCardNumber } from '../../../src/sandbox/payment/card-numbers.js';
import { SANDBOX_TEST_CARDS } from '../../../src/sandbox/payment/delegated-payments.js';
import { authorizePayment, SANDBOX_PAYMENT_TOKENS } from '../../../src/sandbox/payment/simulated-payments.js';

describe('simulated payments', () => {
  it('each sandbox token has its fixed outcome and a description', () => {
    assert.deepEqual(
      SANDBOX_PAYMENT_TOKENS.map(({ token, result }) => [token, result]),
      [
        ['tok_sandbox_success', { outcome: 'approved' }],
        ['tok_sandbox_decline_generic', { outcome: 'declined', reason: 'generic' }],
        ['tok_sandbox_decline_insufficient_funds', { outcome: 'declined', reason: 'insufficient_funds' }],
        ['tok_sandbox_decline_expired_card', { outcome: 'declined', reason: 'expired_card' }],
      ],
    );
    for (const { token, result, description } of SANDBOX_PAYMENT_TOKENS) {
      assert.deepEqual(authorizePayment({ token, credential: { type: 'sandbox_token', token } }), result);
      assert.match(description, /Simulated: nothing is charged\.$/);
    }
    assert.deepEqual(authorizePayment({ token: 'tok_live_123', credential: {} }), { refused: 'unknown_instrument' });
  });

  it('leaves a delegated token (vt_sandbox_ and 24 hex digits) to its allowance, and refuses other shapes as unknown', () => {
    const token = 'vt_sandbox_0123456789abcdef01234567';
    assert.deepEqual(authorizePayment({ token, credential: {} }), { delegated: token });
    assert.deepEqual(authorizePayment({ token: `${token}0`, credential: {} }), { refused: 'unknown_instrument' });
    assert.deepEqual(authorizePayment({ token: 'vt_01J8Z3WXYZ9ABC', credential: {} }), { refused: 'unknown_instrument' });
  });

  it('the test cards of delegated payment are card numbers (so no other number of that kind is taken) with their outcomes', () => {
    for (const card of SANDBOX_TEST_CARDS) assert.equal(holdsCardNumber(card.number), true, card.number);
    assert.deepEqual(
      SANDBOX_TEST_CARDS.map((card) => card.result.outcome === 'approved' ? 'approved' : card.result.reason),
      ['approved', 'generic', 'insufficient_funds', 'expired_card'],
    );
  });

  it('refuses a card number before it reads the token', () => {
    assert.deepEqual(authorizePayment({ token: 'tok_sandbox_success', credential: { pan: '4111 1111 1111 1111' } }), { refused: 'real_card_refused' });
    assert.deepEqual(authorizePayment({ token: '4111111111111111', credential: null }), { refused: 'real_card_refused' });
  });

  describe('what counts as a card number', () => {
    const cards = [
      '4242424242424242', // 16 digits, in one run
      '4242 4242 4242 4242', // grouped by spaces
      '4000-0566-5566-5556', // or dashes
      '378282246310005', // 15 (American Express)
      '6011 0009 9013 9424', // Discover
      '4222222222222', // 13 digits, the shortest
      '6759649826438453', // Maestro, 16
      '6304000000000000', // 16 of 19 possible
      'number: 5555 5555 5555 4444, exp 12/30', // within other text
      '2026 4242 4242 4242 4242', // after a group that is not part of it
    ];
    for (const text of cards) it(`finds ${JSON.stringify(text)}`, () => assert.equal(holdsCardNumber(text), true));

    const others = [
      '4242 4242 4242 4241', // fails the Luhn check
      '424242424242', // 12 digits
      '42424242424242424242424', // one group of 23 digits: no card is cut out of it
      '2026-04-08T12:00:00Z', // a date
      'order 1234 5678', // too short
      '4242  4242  4242  4242', // two spaces do not join groups
      'tok_sandbox_success',
    ];
    for (const text of others) it(`leaves ${JSON.stringify(text)}`, () => assert.equal(holdsCardNumber(text), false));
  });

  it('looks everywhere in a credential: values, numbers, keys, at any depth', () => {
    assert.equal(containsCardNumber({ a: [{ b: { c: ['x', '4242 4242 4242 4242'] } }] }), true);
    assert.equal(containsCardNumber({ number: 4242424242424242 }), true);
    assert.equal(containsCardNumber({ '4242424242424242': 'key' }), true);
    assert.equal(containsCardNumber({ type: 'card', brand: 'visa', last4: '4242', expiry_month: 12 }), false);
    let deep: unknown = '4242424242424242';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    assert.equal(containsCardNumber(deep), true, 'deep nesting does not exhaust the stack');
  });
});
