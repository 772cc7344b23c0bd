import assert from 'node:assert/strict';
import type { CallToolResult } from '@modelcontextprotocol/client';
import type { CheckedResponse } from './contract.js';
import type { McpTestClient } from './mcp-client.js';
import type { TestApp } from './test-app.js';
import { platformCapability, platformProfile, ucpAgent, type PlatformServer } from './ucp-platform.js';
import { assertValid, type UcpValidator } from './ucp-validator.js';

/**
 * A platform shopping through the UCP bindings in tests: its profiles served by the
 * platform server, every answer checked against the app's /openapi.json (REST) and
 * against the release's schemas for the operation, composed with the capabilities the
 * profile negotiates (the validator's own intersection).
 */

/** The platform profiles the shopping tests use, by name: served at `/<name>.json`. */
export const SHOPPING_PROFILES = {
  /** Every capability this service serves. */
  all: platformProfile(),
  /** Cart, checkout and order, without any extension. */
  plain: platformProfile({
    capabilities: Object.fromEntries(['dev.ucp.shopping.cart', 'dev.ucp.shopping.checkout', 'dev.ucp.shopping.order'].map((name) => [name, [platformCapability(name)]])),
  }),
  /** The catalog only: every cart and checkout operation is capabilities_incompatible. */
  catalog: platformProfile({
    capabilities: Object.fromEntries(['dev.ucp.shopping.catalog.search', 'dev.ucp.shopping.catalog.lookup'].map((name) => [name, [platformCapability(name)]])),
  }),
};
export type ShoppingProfile = keyof typeof SHOPPING_PROFILES;

/** A line of a create or update request. */
export const line = (variantId: string, quantity: number) => ({ item: { id: variantId }, quantity });

/** A checkout's fulfillment: shipping to an address in the default market, with the sandbox's option. */
export const FULFILLMENT = {
  methods: [
    {
      type: 'shipping',
      destinations: [{ id: 'home', street_address: 'Via Roma 1', address_locality: 'Milano', postal_code: '20121', address_country: 'IT' }],
      groups: [{ selected_option_id: 'sandbox_standard' }],
    },
  ],
};

/** A complete_checkout payload paying with a sandbox token. */
export const pay = (token: string) => ({ payment: { instruments: [{ id: 'instr_1', handler_id: 'sandbox_payment', type: 'card', credential: { type: 'sandbox_token', token } }] } });

export interface UcpShopper {
  /** A REST call under /ucp/v1 as the platform of `profile` (default `all`), with the key's Authorization header; the answer validated. */
  rest(operation: string, method: 'GET' | 'POST' | 'PUT', path: string, options?: { token?: string; body?: unknown; profile?: ShoppingProfile; headers?: Record<string, string> }): Promise<CheckedResponse>;
  /** A tool call as the platform of `profile`; its result validated, or the JSON-RPC error it threw (validated as one). */
  mcp(client: McpTestClient, tool: string, args: Record<string, unknown>, profile?: ShoppingProfile): Promise<McpOutcome>;
  /** `meta` naming the platform of `profile`. */
  meta(profile?: ShoppingProfile, extra?: object): object;
}

export type McpOutcome = { result: Record<string, any>; error?: undefined } | { result?: undefined; error: { code: number; message: string; data: { code: string; content: string } } };

/** Serves SHOPPING_PROFILES on `platform` (call it in a `before`) and answers the calls of a shopper. */
export function ucpShopper(testApp: () => TestApp, platform: PlatformServer, validator: () => UcpValidator): UcpShopper {
  const negotiated = new Map<ShoppingProfile, object>();
  const capabilities = async (profile: ShoppingProfile) => {
    if (!negotiated.has(profile)) {
      const business = (await testApp().client.get('/.well-known/ucp')).data;
      negotiated.set(profile, validator().negotiate(business, SHOPPING_PROFILES[profile]).capabilities);
    }
    return negotiated.get(profile)!;
  };
  const profileUrl = (profile: ShoppingProfile) => {
    platform.serve(`/${profile}.json`, { body: SHOPPING_PROFILES[profile] });
    return platform.url(`/${profile}.json`);
  };
  return {
    async rest(operation, method, path, { token, body, profile = 'all', headers = {} } = {}) {
      const response = await testApp().client.request({
        method,
        url: `/ucp/v1${path}`,
        headers: { 'ucp-agent': ucpAgent(profileUrl(profile)), ...(token && { authorization: `Bearer ${token}` }), ...headers },
        ...(body !== undefined && { payload: body as object }),
      });
      assertValid(validator().validateRest(operation, response.statusCode, response.data, { capabilities: await capabilities(profile) }), `${operation} ${response.statusCode}`);
      assert.equal(response.headers['cache-control'], 'no-store');
      return response;
    },
    async mcp(client, tool, args, profile = 'all') {
      try {
        const result = (await client.client.callTool({ name: tool, arguments: args })) as CallToolResult;
        assertValid(validator().validateMcpResult(tool, result, { capabilities: await capabilities(profile) }), `${tool} result`);
        assert.notEqual(result.isError, true);
        return { result: result.structuredContent! };
      } catch (rejection) {
        const { code, message, data } = rejection as { code?: unknown; message: string; data: { code: string; content: string } };
        if (typeof code !== 'number') throw rejection;
        assertValid(validator().validateMcpError({ code, message, data }), `the JSON-RPC error of ${tool}`);
        return { error: { code, message, data } };
      }
    },
    meta: (profile = 'all', extra = {}) => ({ 'ucp-agent': { profile: profileUrl(profile) }, ...extra }),
  };
}
