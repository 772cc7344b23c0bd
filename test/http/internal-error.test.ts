import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { errorResponse } from '../../src/catalog/public-api/routes/shared.js';
import { assertProblem } from '../support/catalog-assertions.js';
import type { ContractClient } from '../support/contract.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * Catalog reads are served from the in-memory read model, so no request reaches a
 * failing store: there is no real way to make the catalog routes fail. These routes,
 * documented like the catalog routes, fail the way an unexpected bug would, and prove
 * what any such failure looks like (docs/decisions.md, Errors).
 */
const SQL_ERROR = 'SQLITE_ERROR: near "FROM": syntax error in SELECT id, handle FROM products WHERE status = ? (at /work/main/src/store/database.ts:42)';

const LEAKS = [/SELECT/i, /FROM/, /SQLITE/, /products/, /no_such_table/, /relation/, /\.ts\b/, /\/work\//, /\bat \w+/, /stack/i];

describe('500 INTERNAL_ERROR never leaks internals (docs/decisions.md, Errors)', () => {
  let testApp: TestApp;
  let client: ContractClient;

  const failingRoutes = (app: FastifyInstance) => {
    const schema = { response: { 500: errorResponse('INTERNAL_ERROR: temporary failure') } };
    app.get('/public/v1/test-failure/thrown', { schema }, async () => {
      throw new Error(SQL_ERROR);
    });
    app.get('/public/v1/test-failure/query', { schema }, async () =>
      testApp.store.db.selectFrom('no_such_table' as never).selectAll().execute(),
    );
  };

  before(async () => {
    // Injected requests come from 127.0.0.1, the proxy here, whose X-Request-Id is kept.
    testApp = await startTestApp({ beforeReady: failingRoutes, config: { trustProxy: ['127.0.0.1'] } });
    client = testApp.client;
  });
  after(() => testApp.close());

  for (const [what, path] of [
    ['an Error whose message holds SQL and a file path', '/public/v1/test-failure/thrown'],
    ['a real failing SQL query', '/public/v1/test-failure/query'],
  ]) {
    it(`500 INTERNAL_ERROR without stack, SQL or paths for ${what}`, async () => {
      const response = await client.get(path!);
      assertProblem(response, 500, 'INTERNAL_ERROR');
      for (const leak of LEAKS) assert.doesNotMatch(response.body, leak);
      assert.deepEqual(Object.keys(response.data).sort(), ['error', 'request_id']);
      assert.deepEqual(Object.keys(response.data.error).sort(), ['code', 'hint', 'message']);
    });
  }

  it('500 INTERNAL_ERROR echoes the X-Request-Id of a trusted proxy', async () => {
    const id = '0b7c5a3e-2f1d-4c8b-9a6e-5d4c3b2a1f0e';
    const response = await client.get('/public/v1/test-failure/thrown', { 'x-request-id': id });
    assertProblem(response, 500, 'INTERNAL_ERROR');
    assert.equal(response.data.request_id, id);
  });
});
