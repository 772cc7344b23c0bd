import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { assertSandboxError, SANDBOX_PRODUCTS } from '../support/sandbox.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ALL = ['catalog:read', 'cart:write', 'checkout:create'];
const DAY_MS = 24 * 60 * 60 * 1000;

describe('POST /sandbox/v1/keys', () => {
  let sandbox: TestApp;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS });
  });
  after(() => sandbox.close());

  const issue = (payload?: unknown, headers: Record<string, string> = {}) =>
    sandbox.client.request({ method: 'POST', url: '/sandbox/v1/keys', headers, ...(payload !== undefined && { payload: payload as object }) });

  test('201 without a body grants all three scopes for 24 hours', async () => {
    const before = sandbox.clock().getTime();
    const response = await issue();
    assert.equal(response.statusCode, 201);
    assert.equal(response.headers['cache-control'], 'no-store');
    const key = response.data;
    assert.equal(key.environment, 'sandbox');
    assert.equal(key.token_type, 'Bearer');
    assert.deepEqual(key.scopes, ALL);
    assert.deepEqual(key.available_scopes, ALL);
    // 24 hours from the moment it was issued, however long the request took.
    const expiresAt = Date.parse(key.expires_at);
    assert.ok(expiresAt >= before + DAY_MS && expiresAt <= sandbox.clock().getTime() + DAY_MS, key.expires_at);
  });

  test('Idempotency-Key is neither honoured nor echoed: each call issues a new key, and no token is stored to replay', async () => {
    const first = await issue(undefined, { 'idempotency-key': 'same' });
    const second = await issue(undefined, { 'idempotency-key': 'same' });
    for (const response of [first, second]) {
      assert.equal(response.statusCode, 201);
      assert.equal(response.headers['idempotency-key'], undefined);
      assert.equal(response.headers['idempotent-replayed'], undefined);
    }
    assert.notEqual(first.data.access_token, second.data.access_token);
    const records = await sandbox.store.db.selectFrom('sandbox_idempotency').selectAll().execute();
    assert.ok(!JSON.stringify(records).includes(first.data.access_token));
  });

  test('201 with an empty JSON body, an empty object or an empty scope list grants all three scopes', async () => {
    for (const [payload, headers] of [
      ['', { 'content-type': 'application/json' }],
      [{}, {}],
      [{ scopes: [] }, {}],
    ] as const) {
      const response = await issue(payload, headers);
      assert.equal(response.statusCode, 201, response.body);
      assert.deepEqual(response.data.scopes, ALL);
    }
  });

  test('201 grants exactly the requested scopes', async () => {
    for (const scopes of [['catalog:read'], ['checkout:create', 'cart:write'], ALL]) {
      const response = await issue({ scopes });
      assert.equal(response.statusCode, 201);
      assert.deepEqual([...response.data.scopes].sort(), [...scopes].sort());
    }
  });

  test('the token is sbx_test_ plus at least 32 base62 characters, and only its SHA-256 hash is stored', async () => {
    const tokens = new Set<string>();
    for (let i = 0; i < 5; i++) tokens.add((await issue()).data.access_token);
    assert.equal(tokens.size, 5);
    const rows = await sandbox.store.db.selectFrom('sandbox_keys').selectAll().execute();
    const stored = JSON.stringify(rows);
    for (const token of tokens) {
      assert.match(token, /^sbx_test_[A-Za-z0-9]{32,}$/);
      assert.ok(!stored.includes(token.slice('sbx_test_'.length)), 'the token itself is stored');
      const hash = createHash('sha256').update(token).digest('hex');
      assert.equal(rows.filter((row) => row.token_hash === hash).length, 1);
    }
  });

  test('the shared public key is never stored in the database', async () => {
    const hash = createHash('sha256').update(sandbox.config.sandbox.publicKey).digest('hex');
    const rows = await sandbox.store.db.selectFrom('sandbox_keys').select('token_hash').execute();
    assert.ok(rows.every((row) => row.token_hash !== hash));
    assert.ok(!JSON.stringify(rows).includes(sandbox.config.sandbox.publicKey));
  });

  test('400 sandbox_invalid_request for more than 3, duplicate, unknown or malformed scopes', async () => {
    for (const payload of [
      { scopes: ['catalog:read', 'cart:write', 'checkout:create', 'catalog:read'] },
      { scopes: ['cart:write', 'cart:write'] },
      { scopes: ['orders:write'] },
      { scopes: ['CART:WRITE'] },
      { scopes: 'cart:write' },
      { scopes: [1] },
      { scopes: null },
    ]) {
      assertSandboxError(await issue(payload), 400, 'sandbox_invalid_request');
    }
  });

  test('400 sandbox_invalid_request for extra properties, a non-object body and bad JSON', async () => {
    assertSandboxError(await issue({ scopes: ['cart:write'], ttl: 3600 }), 400, 'sandbox_invalid_request');
    assertSandboxError(await issue([]), 400, 'sandbox_invalid_request');
    assertSandboxError(await issue('{"scopes": [', { 'content-type': 'application/json' }), 400, 'sandbox_invalid_request');
  });
});

describe('key issuance rate limit', () => {
  let sandbox: TestApp;
  before(async () => {
    sandbox = await startTestApp({ catalog: SANDBOX_PRODUCTS, config: { sandbox: { keyRateLimit: 20 } } });
  });
  after(() => sandbox.close());

  test('20 keys per client IP per hour with RateLimit headers; the 21st is 429 sandbox_rate_limited with Retry-After', async () => {
    const windowOpened = Date.now();
    for (let i = 1; i <= 20; i++) {
      const response = await sandbox.client.request({ method: 'POST', url: '/sandbox/v1/keys' });
      assert.equal(response.statusCode, 201);
      assert.equal(response.headers['ratelimit-limit'], '20');
      assert.equal(response.headers['ratelimit-remaining'], String(20 - i));
      assert.ok(Number(response.headers['ratelimit-reset']) > 0);
    }
    const refused = await sandbox.client.request({ method: 'POST', url: '/sandbox/v1/keys' });
    assertSandboxError(refused, 429, 'sandbox_rate_limited');
    assert.equal(refused.headers['ratelimit-limit'], '20');
    assert.equal(refused.headers['ratelimit-remaining'], '0');
    const retryAfter = Number(refused.headers['retry-after']);
    // The hour that began with the first key, less the seconds the requests took.
    const secondsSpent = Math.ceil((Date.now() - windowOpened) / 1000);
    assert.ok(retryAfter >= 3600 - secondsSpent && retryAfter <= 3600, `Retry-After ${retryAfter} after ${secondsSpent} s`);
    assert.equal(refused.headers['ratelimit-reset'], refused.headers['retry-after']);
    assert.equal(refused.data.retry_after, retryAfter);
  });

  test('another client IP has its own allowance', async () => {
    const response = await sandbox.client.request({ method: 'POST', url: '/sandbox/v1/keys', remoteAddress: '10.0.0.9' });
    assert.equal(response.statusCode, 201);
    assert.equal(response.headers['ratelimit-remaining'], '19');
  });
});
