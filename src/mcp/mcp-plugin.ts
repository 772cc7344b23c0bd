import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { CONTRACT_VERSION } from '../http/openapi.js';
import { registerCatalogTools, type CatalogToolDeps } from './catalog-tools.js';
import { registerMcpEndpoint } from './mcp-endpoint.js';

const CATALOG_INSTRUCTIONS = `Vetrina product discovery (read-only). Use search_catalog to find products by text (or browse newest first), get_product for one product by handle, list_markets for the regions, currencies and countries. Prices are major-unit amounts in the market's currency; availability tells whether a variant is purchasable. Stock quantities are never shown. To rehearse a purchase, use the sandbox MCP server at /mcp/sandbox.`;

/** The two MCP servers of contract 1.6: `/mcp` (discovery) and `/mcp/sandbox` (discovery plus simulated cart). */
export const mcpPlugin = fp<{ config: Config }>(
  async (app: FastifyInstance, { config }) => {
    const catalogDeps: CatalogToolDeps = {
      catalog: app.catalog,
      rateLimit: app.catalogRateLimit,
      sharedSchemas: app.getSchemas(),
    };
    const common = { version: CONTRACT_VERSION, allowedHosts: config.mcpAllowedHosts };

    registerMcpEndpoint(app, {
      ...common,
      path: '/mcp',
      name: 'vetrina-catalog',
      instructions: CATALOG_INSTRUCTIONS,
      summary: 'MCP server: read-only product discovery',
      description:
        'Streamable HTTP MCP endpoint (JSON-RPC 2.0), stateless: speaks protocol revision 2026-07-28 and serves 2025-11-25, 2025-06-18 and 2025-03-26 clients. Tools: search_catalog (query, market, limit, cursor), get_product (handle, market), list_markets. No credentials; tool calls share the catalog rate limit of the REST routes (120 per client IP per minute). GET and DELETE answer 405. Host and Origin must be allowed hosts (MCP_ALLOWED_HOSTS).',
      registerTools: (server, context) => registerCatalogTools(server, catalogDeps, context),
    });
  },
  { name: 'mcp', dependencies: ['catalog'] },
);
