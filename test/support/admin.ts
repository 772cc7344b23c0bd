import assert from 'node:assert/strict';
import { loadConfig, type AdminConfig } from '../../src/config.js';
import { ContractClient, type CheckedResponse } from './contract.js';
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
