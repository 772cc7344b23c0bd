import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { LOCALES } from '../catalog/model/locales.js';
import type { CatalogService } from '../catalog/queries/catalog-service.js';
import { preparedDocument, type Caching } from '../http/prepared-body.js';
import type { RateLimitCheck } from '../http/rate-limit.js';
import { sellingCurrencies } from '../sandbox/market-opening.js';
import { ACP_PATHS } from './endpoints.js';
import { acpErrorResponse } from './errors.js';
import { ACP_TAG } from './openapi.js';
import { ACP_VERSION } from './version.js';

/**
 * rfc.discovery.md, Document Location: implementations should allow caching for at least
 * an hour. The document changes only with a deployment or the currencies the catalog's
 * markets sell in; its ETag revalidates it cheaply after the hour.
 */
const DISCOVERY_CACHING: Caching = { cacheControl: 'public, max-age=3600' };

/**
 * The release's services we serve, in the order of its enum: checkout sessions, orders
 * (the order events of completed sessions, sent to the key's order webhook), delegated
 * payment and carts. The enum has no value for the product feed (docs/acp.md, Discovery).
 */
const SERVICES = ['checkout', 'orders', 'delegate_payment', 'carts'] as const;

const DATE = '^\\d{4}-\\d{2}-\\d{2}$';

/** What this service's document holds, for /openapi.json; the release's DiscoveryResponse (schema.agentic_checkout.json) is the authority. */
const DiscoveryDocumentSchema = Type.Object(
  {
    protocol: Type.Object({
      name: Type.Literal('acp'),
      version: Type.String({ pattern: DATE, description: `The release served: ${ACP_VERSION}.` }),
      supported_versions: Type.Array(Type.String({ pattern: DATE }), { description: 'Every release served, oldest first.' }),
    }),
    api_base_url: Type.String({ format: 'uri', description: `PUBLIC_BASE_URL followed by ${ACP_PATHS.prefix}: the release's paths (/checkout_sessions, /carts, /agentic_commerce/delegate_payment) are appended to it.` }),
    transports: Type.Array(Type.Union([Type.Literal('rest'), Type.Literal('mcp')]), {
      description: `rest (under api_base_url) and mcp: the release's MCP binding at PUBLIC_BASE_URL followed by ${ACP_PATHS.mcp} (the release gives its URL out of band, not here).`,
    }),
    capabilities: Type.Object({
      services: Type.Array(Type.String(), { description: SERVICES.join(', ') }),
      supported_currencies: Type.Array(Type.String({ pattern: '^[a-z]{3}$' }), {
        description: 'The currencies a checkout session can be created in: sold by a market of the live catalog and shipped to by the sandbox (lower case).',
      }),
      supported_locales: Type.Array(Type.String(), { description: 'The languages the catalog is served in.' }),
    }),
  },
  { title: 'AcpDiscovery' },
);

export interface DiscoveryRouteOptions {
  publicBaseUrl: string;
  catalog: CatalogService;
  shippingAmounts: Record<string, number>;
  rateLimit: RateLimitCheck;
}

/** The discovery document as it is now: only the currencies follow the live catalog. */
function discoveryDocument({ publicBaseUrl, catalog, shippingAmounts }: Omit<DiscoveryRouteOptions, 'rateLimit'>): object {
  return {
    protocol: { name: 'acp', version: ACP_VERSION, supported_versions: [ACP_VERSION] },
    api_base_url: `${publicBaseUrl}${ACP_PATHS.prefix}`,
    transports: ['rest', 'mcp'],
    capabilities: {
      services: SERVICES,
      supported_currencies: sellingCurrencies(catalog.live, shippingAmounts)
        .map((currency) => currency.toLowerCase())
        .sort(),
      supported_locales: LOCALES,
    },
  };
}

const cacheHeaders = {
  ETag: Type.String({ description: 'Strong validator; If-None-Match with it gets 304 while the document is unchanged.' }),
  'Cache-Control': Type.String({ description: `\`${DISCOVERY_CACHING.cacheControl}\`` }),
};

/** `GET /.well-known/acp.json` (rfc.discovery.md): at the root of the host, in `scope`, whose prefix is that path. */
export function discoveryRoute(scope: FastifyInstance, options: DiscoveryRouteOptions): void {
  scope.get(
    '',
    {
      onRequest: options.rateLimit,
      compress: false,
      schema: {
        operationId: 'getAcpDiscovery',
        tags: [ACP_TAG],
        summary: 'The ACP discovery document',
        description: `The Agentic Commerce Protocol discovery document (rfc.discovery.md): the release served (${ACP_VERSION}), the REST API's base URL, its transports (REST and MCP), and the services, currencies and locales served. Keyless; needs no API-Version. Counts against the catalog rate limit.`,
        security: [],
        response: {
          200: { description: 'The discovery document.', headers: cacheHeaders, content: { 'application/json': { schema: DiscoveryDocumentSchema } } },
          304: { description: 'Not Modified: If-None-Match holds the ETag of the document as it is now; no body.', headers: cacheHeaders },
          400: acpErrorResponse('invalid_request: a malformed request.'),
          429: acpErrorResponse('rate_limited: the catalog rate limit (Retry-After).'),
        },
      },
    },
    preparedDocument(() => discoveryDocument(options), DISCOVERY_CACHING),
  );
}
