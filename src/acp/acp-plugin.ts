import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { catalogCacheControl } from '../catalog/public-api/answers.js';
import { catalogLimitInWords } from '../catalog/public-api/rate-limit.js';
import { catalogResponses } from '../catalog/public-api/routes/shared.js';
import type { Config } from '../config.js';
import { useErrorSurface } from '../http/error-surface.js';
import { ACP_PATHS } from './endpoints.js';
import { acpErrors } from './errors.js';
import { FeedDocuments } from './feed/feed-documents.js';
import { feedRoutes } from './feed/feed-routes.js';

export interface AcpPluginOptions {
  config: Config;
}

/**
 * The Agentic Commerce Protocol (docs/acp.md) under `/acp`, over the catalog: the
 * product feed of each market.
 */
export const acpPlugin = fp<AcpPluginOptions>(
  async (app: FastifyInstance, { config }) => {
    const cacheControl = catalogCacheControl(config.catalogCache);
    const limitInWords = catalogLimitInWords(config);
    const documents = new FeedDocuments(app.catalog, app.changeFeed, { cacheControl }, config.storefrontUrl);
    await app.register(
      async (acp) => {
        useErrorSurface(acp, acpErrors);
        feedRoutes(acp, { documents, rateLimit: app.catalogRateLimit, responses: catalogResponses(limitInWords, cacheControl), limitInWords });
      },
      { prefix: ACP_PATHS.prefix },
    );
  },
  { name: 'acp', dependencies: ['catalog', 'delivery', 'rate-limits', 'error-surfaces'] },
);
