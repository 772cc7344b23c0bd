import type { FastifyInstance } from 'fastify';
import { KEY_LIFETIME_MS } from '../keys.js';
import { DEFAULT_SCOPES, PUBLIC_KEY_SCOPES, SCOPES } from '../scopes.js';
import { errorResponses, jsonResponse } from './docs.js';
import type { SandboxRouteKit } from './shared.js';

export function discoveryRoute(app: FastifyInstance, { config }: SandboxRouteKit): void {
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
      rate_limit: keyRateLimit > 0 ? { limit: keyRateLimit, window_seconds: 3600, per: 'client_ip' } : null,
      public_key: { access_token: publicKey, scopes: PUBLIC_KEY_SCOPES },
    },
    available_scopes: SCOPES,
    openapi_url: `${base}/openapi.json`,
    mcp_url: `${base}/mcp/sandbox`,
  };

  app.get(
    '/v1',
    {
      schema: {
        operationId: 'getSandboxDiscovery',
        tags: ['sandbox'],
        summary: 'How to use the sandbox',
        description:
          'Free, simulated, keyless to read. `key_issuance` tells how to get a key (POST /sandbox/v1/keys: 24 h lifetime, all three scopes by default, 20 keys per client IP per hour) and shows the shared public key (`catalog:read` only: it cannot create or change carts). Scopes per route: every cart route needs `cart:write` except checkout, which needs `checkout:create`.',
        response: {
          200: jsonResponse('The sandbox and how to get a key', 'SandboxDiscovery'),
          ...errorResponses({}),
        },
      },
    },
    async () => discovery,
  );
}
