import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { before } from 'node:test';
import type { AcpDocument, AcpValidator } from './acp-validator.js';
import type { CheckedResponse } from './contract.js';
import { SANDBOX_PRODUCTS } from './sandbox.js';
import { useTestApp, type TestApp } from './test-app.js';

export const ACP_VERSION = '2026-04-17';

/** A shipping address in the release's Address: every field it requires. */
export const ACP_ADDRESS = { name: 'Ada Lovelace', line_one: 'Via Roma 1', city: 'Milano', state: 'MI', country: 'IT', postal_code: '20121' };

/** Payment data of the sandbox handler paying with `token`. */
export const paymentData = (token: string) => ({ handler_id: 'sandbox_card', instrument: { type: 'card', credential: { type: 'sandbox_token', token } } });

/** What a delegation request varies: the card, the allowance's amount, currency and expiry, the metadata. */
export interface DelegationFields {
  number?: string;
  max_amount?: number;
  currency?: string;
  expires_at?: string;
  metadata?: object;
}

/** A delegate payment request for `sessionId`: a sandbox test card (4242..., approved) with an allowance of 2140 EUR cents for an hour from `now`. */
export const delegationRequest = (sessionId: string, now: Date, fields: DelegationFields = {}) => ({
  payment_method: {
    type: 'card',
    card_number_type: 'fpan',
    number: fields.number ?? '4242424242424242',
    exp_month: '11',
    exp_year: '2030',
    display_card_funding_type: 'credit',
    display_last4: '4242',
    metadata: {},
  },
  allowance: {
    reason: 'one_time',
    max_amount: fields.max_amount ?? 2140,
    currency: fields.currency ?? 'eur',
    checkout_session_id: sessionId,
    merchant_id: 'vetrina_sandbox',
    expires_at: fields.expires_at ?? new Date(now.getTime() + 3_600_000).toISOString(),
  },
  risk_signals: [{ type: 'card_testing', score: 3, action: 'authorized' }],
  metadata: fields.metadata ?? { campaign: 'rehearsal' },
});

export interface AcpRequest {
  token?: string;
  body?: unknown;
  /** Replaces the defaults (API-Version, a fresh Idempotency-Key on POST and PUT); a header set to undefined is left out. */
  headers?: Record<string, string | undefined>;
  /**
   * An error whose code the operation's document does not enumerate (the delegate payment
   * Error lists six codes, none for a missing key or a malformed body) is checked against
   * the checkout document's Error, whose code is free.
   */
  errorOutsideEnum?: true;
}

/**
 * ACP calls as an agent makes them: the release's headers, a fresh Idempotency-Key on
 * every POST and PUT unless given, the key as the bearer token. Every answer is checked against
 * the app's own /openapi.json (the contract client) and against the release's OpenAPI
 * document for the operation and status.
 */
export function acpAgent(testApp: () => TestApp, validator: () => AcpValidator) {
  return async (operationId: string, method: 'GET' | 'POST' | 'PUT', url: string, request: AcpRequest = {}, document: AcpDocument = 'checkout'): Promise<CheckedResponse> => {
    const headers: Record<string, string | undefined> = {
      'api-version': ACP_VERSION,
      ...(method !== 'GET' && { 'idempotency-key': randomUUID(), 'content-type': 'application/json' }),
      ...(request.token !== undefined && { authorization: `Bearer ${request.token}` }),
      ...request.headers,
    };
    const response = await testApp().client.request({
      method,
      url: `/acp${url}`,
      headers: Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined)),
      ...(request.body !== undefined && { payload: JSON.stringify(request.body) }),
    });
    const errors = request.errorOutsideEnum
      ? validator().componentErrors('checkout', 'Error', response.data)
      : validator().answerErrors(document, operationId, response.statusCode, response.data);
    if (errors.length > 0) throw new Error(`${method} ${url} → ${response.statusCode} is not valid ACP: ${errors.join('; ')}\n${response.body.slice(0, 600)}`);
    return response;
  };
}

/** Asserts that `replay` answers as `first` did for the Idempotency-Key `key`: the same status and bytes, said to be replayed, the key echoed. */
export function assertReplayed(first: CheckedResponse, replay: CheckedResponse, key: string): void {
  assert.equal(replay.statusCode, first.statusCode);
  assert.equal(replay.body, first.body);
  assert.equal(replay.headers['idempotent-replayed'], 'true');
  assert.equal(first.headers['idempotent-replayed'], undefined);
  assert.equal(replay.headers['idempotency-key'], key);
}

/** Asserts an error answer in the release's flat shape. */
export function assertAcpError(response: CheckedResponse, status: number, code: string, type = 'invalid_request'): void {
  assert.equal(response.statusCode, status, response.body);
  assert.equal(response.data.code, code, response.body);
  assert.equal(response.data.type, type, response.body);
}

/** The SANDBOX_PRODUCTS SKUs the ACP tests put in carts and sessions: in stock, ten cents, sold out, a draft. */
const SHOP_SKUS = ['OIL', 'TEN', 'SOLD-OUT', 'DRAFT'];

/**
 * A test app on SANDBOX_PRODUCTS as an ACP agent's shop: the agent calling it, the variant
 * ids of SHOP_SKUS, `items(...)` as line items of those SKUs, and a sandbox key (`token`),
 * made before the tests.
 */
export function useAcpShop(validator: () => AcpValidator) {
  const testApp = useTestApp({ catalog: SANDBOX_PRODUCTS });
  const ids: Record<string, string> = {};
  const shop = {
    testApp,
    acp: acpAgent(() => testApp, validator),
    ids,
    token: '',
    items: (...skus: string[]) => skus.map((sku) => ({ id: ids[sku]! })),
  };
  before(async () => {
    for (const sku of SHOP_SKUS) ids[sku] = await testApp.variantId(sku);
    shop.token = await testApp.newKey();
  });
  return shop;
}
