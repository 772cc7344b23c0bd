import Fastify, { type FastifyInstance } from 'fastify';
import { catalogPlugin } from './catalog/catalog-plugin.js';
import { catalogSchemas } from './catalog/schemas.js';
import { mcpPlugin } from './mcp/mcp-plugin.js';
import { seedEmptyStore } from './catalog/seed.js';
import type { Config } from './config.js';
import { errorHandler } from './http/error-handler.js';
import { openapi } from './http/openapi.js';
import { rateLimits } from './http/rate-limit.js';
import { requestIdFor, requestIdHeader } from './http/request-id.js';
import { buildValidatorCompiler } from './http/validation.js';
import { openStore, type Store } from './store/database.js';
import { migrateToLatest } from './store/migrate.js';

export interface AppOptions {
  config: Config;
  /** An already open store; the app then leaves closing it to the caller. */
  store?: Store;
  /** Pino options or false; defaults to the configured level. */
  logger?: boolean | object;
}

const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * Builds the whole service without listening: external plugins, then cross-cutting
 * HTTP plugins, then the features. `server.ts` runs it; tests inject into it.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    genReqId: requestIdFor,
    bodyLimit: BODY_LIMIT_BYTES,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Fastify types this factory for its own Ajv pool; ours returns a compiler of the same shape.
    schemaController: { compilersFactory: { buildValidator: buildValidatorCompiler as never } },
  });

  const store = options.store ?? openStore(config);
  if (!options.store) app.addHook('onClose', async () => store.close());
  await migrateToLatest(store.db);
  await seedEmptyStore(store.db, config.catalogSeed, app.log);

  for (const schema of catalogSchemas) app.addSchema(schema);

  await app.register(openapi, { config });
  await app.register(errorHandler);
  await app.register(requestIdHeader);
  await app.register(rateLimits);
  await app.register(catalogPlugin, { config, store });
  await app.register(mcpPlugin, { config });
  return app;
}
