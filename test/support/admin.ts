import assert from 'node:assert/strict';
import { loadConfig, type AdminConfig } from '../../src/config.js';
import { ContractClient, type CheckedResponse } from './contract.js';
import { pollUntil } from './poll.js';
import type { TestApp, TestAppOptions } from './test-app.js';

/** Two systems with admin tokens of their own, as an operator would configure them. */
export const ERP_TOKEN = 'erp_0123456789abcdefghijklmnopqrstuv';
export const PIM_TOKEN = 'pim_0123456789abcdefghijklmnopqrstuv';
export const ADMIN_TOKENS = `erp:${ERP_TOKEN},pim:${PIM_TOKEN}`;

/** The admin settings of a deployment with both tokens, parsed as the server parses them. */
export function adminConfig(env: Record<string, string> = {}): AdminConfig {
  return loadConfig({ ADMIN_TOKENS, ...env }).admin;
}

/** startTestApp options with the admin API on (both tokens, no rate limit unless given). */
export function withAdmin(options: TestAppOptions = {}, env: Record<string, string> = {}): TestAppOptions {
  return { ...options, config: { ...options.config, admin: adminConfig({ ADMIN_RATE_LIMIT: '0', ...env }) } };
}

export interface AdminCall {
  (method: string, url: string, payload?: unknown, headers?: Record<string, string>): Promise<CheckedResponse>;
}

/**
 * Calls the admin API with the ERP token (unless the headers say otherwise) and checks
 * every answer against /admin/openapi.json, as the public tests check theirs.
 */
export function adminClient(testApp: Pick<TestApp, 'app'>): AdminCall {
  const client = new ContractClient(testApp.app, '/admin/openapi.json');
  return (method, url, payload, headers = {}) =>
    client.request({
      method,
      url,
      headers: { authorization: `Bearer ${ERP_TOKEN}`, ...headers },
      ...(payload !== undefined && { payload: payload as object }),
    });
}

/** Asserts an admin error: its status, code and envelope, and that it leaks nothing internal. */
export function assertAdminError(response: { statusCode: number; body: string; json(): any }, status: number, code: string): any {
  assert.equal(response.statusCode, status, response.body);
  const body = response.json();
  assert.equal(body.error.code, code, response.body);
  assert.equal(typeof body.error.message, 'string');
  assert.equal(typeof body.error.hint, 'string');
  assert.match(body.request_id, /^[0-9a-f-]{36}$/);
  assert.doesNotMatch(response.body, /\bat .+\.(ts|js):\d+|SELECT |INSERT |UPDATE |sqlite|postgres/i);
  return body.error;
}

/** A hang guard only: the imports of the tests take a few seconds at most. */
const IMPORT_LIMIT_MS = 120_000;
const ENDED = ['succeeded', 'failed', 'cancelled'];

/** POST /admin/v1/imports with `file` (a catalog object, or the body as it is sent) as the ERP token. */
export function postImport(testApp: Pick<TestApp, 'app'>, file: unknown, query = '') {
  return testApp.app.inject({
    method: 'POST',
    url: `/admin/v1/imports${query}`,
    headers: { authorization: `Bearer ${ERP_TOKEN}`, 'content-type': 'application/json' },
    payload: typeof file === 'string' ? file : JSON.stringify(file),
  });
}

/** Reads import job `id` until it has ended (succeeded, failed or cancelled); returns it. */
export async function endedImport(testApp: Pick<TestApp, 'app'>, id: string): Promise<any> {
  const admin = adminClient(testApp);
  const { value } = await pollUntil(async () => (await admin('GET', `/admin/v1/imports/${id}`)).data.job, (job) => ENDED.includes(job.status), IMPORT_LIMIT_MS);
  assert.ok(ENDED.includes(value.status), `job ${id} still ${value.status} after ${IMPORT_LIMIT_MS} ms`);
  return value;
}

/** Imports `file` over the admin API (202 with a job) and returns the job once it has ended. */
export async function importOverHttp(testApp: Pick<TestApp, 'app'>, file: unknown, query = ''): Promise<any> {
  const accepted = await postImport(testApp, file, query);
  assert.equal(accepted.statusCode, 202, accepted.body);
  assert.equal(accepted.headers.location, `/admin/v1/imports/${accepted.json().job.id}`);
  return endedImport(testApp, accepted.json().job.id);
}

/** Imports `file` over the admin API and asserts that its job failed with `code` having written nothing; returns the job's error. */
export async function failedImport(testApp: Pick<TestApp, 'app'>, file: unknown, code: string): Promise<any> {
  const job = await importOverHttp(testApp, file);
  assert.deepEqual([job.status, job.error?.code, job.report], ['failed', code, null], JSON.stringify(job));
  assert.doesNotMatch(JSON.stringify(job.error), /\bat .+\.(ts|js):\d+|SELECT |INSERT |UPDATE |sqlite|postgres/i);
  return job.error;
}
