import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { CatalogAnswers } from './public-api/answers.js';
import { CatalogChangeFollower } from './read-model/change-follower.js';
import { CatalogWriter } from './store/catalog-writer.js';
import { CatalogService } from './queries/catalog-service.js';
import { ChangeFeed } from './queries/change-feed.js';
import { ChangeStreams } from './public-api/change-stream.js';
import { changeRoutes } from './public-api/routes/changes.js';
import { CursorCodec } from './queries/cursor.js';
import { publicApiErrors } from './public-api/errors.js';
import { useErrorSurface } from '../http/error-surface.js';
import { deploymentSecret } from '../store/deployment-secrets.js';
import { catalogLimitInWords, defineCatalogRateLimit } from './public-api/rate-limit.js';
import { CatalogReadModel } from './read-model/read-model.js';
import type { HeapBudget } from './read-model/heap-budget.js';
import { getProductRoute } from './public-api/routes/get-product.js';
import { listProductsRoute } from './public-api/routes/list-products.js';
import { lookupProductsRoute } from './public-api/routes/lookup-products.js';
import { catalogResponses } from './public-api/routes/shared.js';
import { taxonomyRoutes } from './public-api/routes/taxonomy.js';
import type { Store } from '../store/database.js';
import type { RateLimitCheck } from '../http/rate-limit.js';

declare module 'fastify' {
  interface FastifyInstance {
    catalog: CatalogService;
    catalogReadModel: CatalogReadModel;
    /** The one way to change the catalog here: each change it commits is served by this instance before it returns, and announced to the others. */
    catalogWriter: CatalogWriter;
    /** The public change feed, shared by REST and the MCP tool get_catalog_changes. */
    changeFeed: ChangeFeed;
    /** The change streams this instance holds open (GET /public/v1/changes/stream). */
    changeStreams: Pick<ChangeStreams, 'openCount'>;
    /** The catalog routes' shared window, also counted by the MCP catalog tools. */
    catalogRateLimit: RateLimitCheck;
  }
}

/** The key of the MACs that make cursors tamper-evident. */
const CURSOR_SECRET = 'catalog_cursor_mac';

/**
 * The public catalog: its read model, the service over it (decorated as `app.catalog`),
 * and the REST routes under `/public`, in a context of their own that answers their
 * errors and unknown routes in the public API's envelope.
 */
export const catalogPlugin = fp<{ config: Config; store: Store; heapBudget?: () => HeapBudget }>(
  async (app: FastifyInstance, { config, store, heapBudget }) => {
    const readModel = new CatalogReadModel(store.db, app.log, heapBudget);
    await readModel.load();
    readModel.startWatching(config.catalogPollMs);
    app.addHook('onClose', async () => readModel.stopWatching());
    const changes = new CatalogChangeFollower(app.redis, readModel, app.log);
    changes.follow();
    app.decorate('catalogWriter', new CatalogWriter(store.db, {
        announce: (version) => changes.committed(version),
        changeLogRetentionHours: config.changeFeed.retentionHours,
      }));

    const cursors = new CursorCodec(await deploymentSecret(store.db, CURSOR_SECRET));
    const catalog = new CatalogService(readModel, config.storefrontUrl, cursors);
    app.decorate('catalogReadModel', readModel);
    app.decorate('catalog', catalog);

    const rateLimit = defineCatalogRateLimit(app, config);
    app.decorate('catalogRateLimit', rateLimit);
    const feed = new ChangeFeed(store.db, catalog);
    app.decorate('changeFeed', feed);
    const streams = new ChangeStreams(readModel, feed, config.changeFeed, app.log);
    app.decorate('changeStreams', streams);
    // Before the server stops accepting: open streams would otherwise hold the drain.
    app.addHook('preClose', async () => streams.close());
    const answers = new CatalogAnswers(catalog, feed, config.catalogCache);
    const responses = catalogResponses(catalogLimitInWords(config), answers.caching.cacheControl);
    await app.register(
      async (routes) => {
        useErrorSurface(routes, publicApiErrors);
        const kit = { answers, rateLimit, responses };
        listProductsRoute(routes, kit);
        getProductRoute(routes, kit);
        lookupProductsRoute(routes, kit);
        taxonomyRoutes(routes, kit);
        changeRoutes(routes, { ...kit, feed, streams, settings: config.changeFeed });
      },
      { prefix: '/public' },
    );
  },
  { name: 'catalog', dependencies: ['rate-limits', 'redis', 'error-surfaces'] },
);
