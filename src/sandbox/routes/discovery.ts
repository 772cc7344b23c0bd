import type { FastifyInstance } from 'fastify';
import { KEY_LIFETIME_HOURS, KEY_LIFETIME_MS } from '../keys.js';
import { KEY_WINDOW_MS, keyLimitText } from '../rate-limits.js';
import { SCENARIO_LIST } from '../scenarios.js';
import { CART_SCOPE, CHECKOUT_SCOPE, DEFAULT_SCOPES, PUBLIC_KEY_SCOPES, SCOPES } from '../scopes.js';
import { errorResponses, jsonResponse } from './docs.js';
import type { SandboxRouteKit } from './shared.js';

/** GET /sandbox/v1: what the sandbox is and how to get a key, for people and agents. */
export function discoveryRoutes(app: FastifyInstance, { config }: SandboxRouteKit): void {
  const base = config.publicBaseUrl;
  const { keyRateLimit, publicKey } = config.sandbox;
  const discovery = {
    environment: 'sandbox',
    status: 'available',
    simulated: true,
    free: true,
    key_issuance: {
      endpoint: `${base}/sandbox/v1/keys`,
      method: 'POST',
      lifetime_seconds: KEY_LIFETIME_MS / 1000,
      default_scopes: DEFAULT_SCOPES,
      rate_limit: keyRateLimit > 0 ? { limit: keyRateLimit, window_seconds: KEY_WINDOW_MS / 1000, per: 'client_ip' } : null,
      public_key: { access_token: publicKey, scopes: PUBLIC_KEY_SCOPES },
    },
    available_scopes: SCOPES,
    openapi_url: `${base}/openapi.json`,
    mcp_url: `${base}/mcp/sandbox`,
    scenarios: SCENARIO_LIST,
  };

  app.get(
    '/v1',
    {
      schema: {
        operationId: 'getSandboxDiscovery',
        tags: ['sandbox'],
        summary: 'How to use the sandbox',
        security: [],
        description: `Free, simulated, keyless to read. \`key_issuance\` tells how to get a key (POST /sandbox/v1/keys: ${KEY_LIFETIME_HOURS} h lifetime, ${DEFAULT_SCOPES.join(', ')} by default, ${keyLimitText(config.sandbox)}) and shows the shared public key (\`${PUBLIC_KEY_SCOPES.join(', ')}\` only: it cannot create or change carts). Scopes per route: every cart route needs \`${CART_SCOPE}\` except checkout, which needs \`${CHECKOUT_SCOPE}\`. \`scenarios\` lists the failures a client can ask for on purpose (the Sandbox-Scenario header) to rehearse its recovery.`,
        response: {
          200: jsonResponse('The sandbox and how to get a key', 'SandboxDiscovery'),
          ...errorResponses({ 400: 'sandbox_invalid_request: a repeated Host or Authorization header.' }),
        },
      },
    },
    async () => discovery,
  );
}
