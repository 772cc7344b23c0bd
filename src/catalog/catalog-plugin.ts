import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { followCatalogChanges } from './catalog-change-feed.js';
import { CatalogService } from './catalog-service.js';
import { CursorCodec } from './cursor.js';
import { deploymentSecret } from '../store/deployment-secrets.js';
import { defineCatalogRateLimit } from './rate-limit.js';
import { CatalogReadModel } from './read-model/read-model.js';
import { getProductRoute } from './routes/get-product.js';
import { listProductsRoute } from './routes/list-products.js';
import { catalogResponses } from './routes/shared.js';
import type { Store } from '../store/database.js';
import type { RateLimitCheck } from '../http/rate-limit.js';

declare module 'fastify' {
  interface FastifyInstance {
    catalog: CatalogService;
    catalogReadModel: CatalogReadModel;
    /** The catalog routes' shared window, also counted by the MCP catalog tools. */
    catalogRateLimit: RateLimitCheck;
  }
}

/** The key of the MACs that make cursors tamper-evident. */
const CURSOR_SECRET = 'catalog_cursor_mac';

/** The public catalog: its read model, the service over it, and the two REST routes. */
export const catalogPlugin = fp<{ config: Config; store: Store }>(
  async (app: FastifyInstance, { config, store }) => {
    const readModel = new CatalogReadModel(store.db, app.log);
    await readModel.load();
    readModel.startWatching(config.catalogPollMs);
    app.addHook('onClose', async () => readModel.stopWatching());
    if (app.redis) followCatalogChanges(app.redis, readModel, app.log);

    const cursors = new CursorCodec(await deploymentSecret(store.db, CURSOR_SECRET));
    const catalog = new CatalogService(readModel, config.storefrontUrl, cursors);
    app.decorate('catalogReadModel', readModel);
    app.decorate('catalog', catalog);

    const rateLimit = defineCatalogRateLimit(app, config.catalogRateLimit);
    app.decorate('catalogRateLimit', rateLimit);
    const responses = catalogResponses(config.catalogRateLimit);
    listProductsRoute(app, catalog, rateLimit, responses);
    getProductRoute(app, catalog, rateLimit, responses);
  },
  { name: 'catalog', dependencies: ['rate-limits', 'redis'] },
);
