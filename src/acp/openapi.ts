import { ACP_PATHS } from './endpoints.js';
import { ACP_VERSION } from './version.js';

/** The tag of every ACP route in /openapi.json. */
export const ACP_TAG = 'ACP';

/** The tag as /openapi.json declares it (src/openapi-document.ts). */
export const ACP_TAG_DOCUMENT = {
  name: ACP_TAG,
  description: `The Agentic Commerce Protocol ${ACP_VERSION}, over the same live catalog and simulated sandbox: the discovery document at ${ACP_PATHS.discovery}; the product feed of each market under ${ACP_PATHS.feed}; checkout sessions under ${ACP_PATHS.checkoutSessions} (and as the release's MCP tools at ${ACP_PATHS.mcp}), carts under ${ACP_PATHS.carts}, a simulated delegated payment at ${ACP_PATHS.delegatePayment} and the sandbox key's order webhook at ${ACP_PATHS.orderWebhook} (its orders' events), with the release's headers (API-Version, Idempotency-Key on every POST, PUT and DELETE, Request-Id) and a sandbox key as the bearer token. Nothing real is ever created.`,
};
