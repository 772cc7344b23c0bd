import { malformedRequestResponse } from './catalog/public-api/routes/shared.js';
import type { Config } from './config.js';
import type { ApiDocument } from './http/openapi.js';
import { ACP_TAG_DOCUMENT } from './acp/openapi.js';
import { UCP_TAG_DOCUMENT } from './ucp/openapi.js';

/** What `/openapi.json` says of the service as a whole: its title, rules that hold for every route, tags and security schemes. */
export function openApiDocument(config: Config): ApiDocument {
  return {
    title: 'Vetrina: public catalog and simulated commerce sandbox',
    description:
      'A keyless public product catalog with live regional prices and availability, and a free simulated sandbox for rehearsing cart and checkout. Nothing real (order, payment, customer, stock reservation) is ever created by the sandbox. ' +
      `A request must arrive whole (headers and body) within ${config.requestTimeoutMs / 1000} s, else 408; a request body with a Content-Encoding is 415 (none is decoded); two Host or Authorization headers are 400.`,
    serverUrl: config.publicBaseUrl,
    tags: [
      { name: 'catalog', description: 'Public, keyless, read-only catalog.' },
      { name: 'sandbox', description: 'Simulated cart and checkout with short-lived bearer keys. Every answer carries Cache-Control: no-store.' },
      { name: 'discovery', description: 'Machine-readable contract and MCP servers.' },
      { name: 'operations', description: 'Liveness, readiness and metrics, for orchestrators and monitoring; never rate limited.' },
      UCP_TAG_DOCUMENT,
      ACP_TAG_DOCUMENT,
    ],
    securitySchemes: {
      sandboxBearer: {
        type: 'http',
        scheme: 'bearer',
        description:
          'A sandbox key from POST /sandbox/v1/keys (`sbx_test_...`), sent as `Authorization: Bearer <access_token>`. The scopes listed on an operation are the ones it needs.',
      },
      // Declared only where GET /metrics uses it: an unused scheme would tell clients of a credential they never need.
      ...(config.metricsToken && {
        metricsBearer: {
          type: 'http',
          scheme: 'bearer',
          description: "The server's METRICS_TOKEN, required by GET /metrics.",
        },
      }),
    },
    malformedRequest: malformedRequestResponse,
  };
}
