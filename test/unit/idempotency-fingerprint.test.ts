import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fingerprint } from '../../src/sandbox/idempotency.js';

describe('the idempotency request fingerprint (docs/decisions.md, Idempotency)', () => {
  it('is the same for the same body whatever the order of its keys, at every depth', () => {
    assert.equal(
      fingerprint({ variant_id: 'v1', quantity: 2, address: { city: 'Milano', country: 'IT' } }),
      fingerprint({ address: { country: 'IT', city: 'Milano' }, quantity: 2, variant_id: 'v1' }),
    );
  });

  it('is the same for no body and an empty one', () => {
    assert.equal(fingerprint(undefined), fingerprint({}));
    assert.equal(fingerprint(null), fingerprint({}));
  });

  it('differs for another value, another key, another type or another array order', () => {
    const base = fingerprint({ quantity: 2, scopes: ['cart:write', 'checkout:create'] });
    for (const other of [
      { quantity: 3, scopes: ['cart:write', 'checkout:create'] },
      { quantity: '2', scopes: ['cart:write', 'checkout:create'] },
      { amount: 2, scopes: ['cart:write', 'checkout:create'] },
      { quantity: 2, scopes: ['checkout:create', 'cart:write'] },
      { quantity: 2, scopes: ['cart:write', 'checkout:create'], extra: null },
    ]) {
      assert.notEqual(fingerprint(other), base, JSON.stringify(other));
    }
  });
});
