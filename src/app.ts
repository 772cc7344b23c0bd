import Fastify, { LogController, type FastifyInstance } from 'fastify';
import { acpPlugin } from './acp/acp-plugin.js';
import { ACP_PATHS } from './acp/endpoints.js';
import { adminPlugin } from './admin/admin-plugin.js';
import { catalogPlugin } from './catalog/catalog-plugin.js';
import { publicApiErrors } from './catalog/public-api/errors.js';
import { catalogSchemas } from './catalog/public-api/schemas.js';
import { deliveryPlugin } from './delivery/delivery-plugin.js';
import { mcpPlugin } from './mcp/mcp-plugin.js';
import { openApiDocument } from './openapi-document.js';
import { seedEmptyStore } from './catalog/store/seed.js';
import type { HeapBudget } from './catalog/read-model/heap-budget.js';
import type { Config } from './config.js';
import { clientErrorHandler } from './http/client-errors.js';
import { compression } from './http/compression.js';
import { corsPolicy } from './http/cors.js';
import { errorSurfaces, frameworkErrorHandler } from './http/error-surface.js';
import { serializeJson } from './http/json-serializer.js';
import { openapi } from './http/openapi.js';
import { rateLimits } from './http/rate-limit.js';
import { requestGuards } from './http/request-guards.js';
import { requestIdGenerator, requestIdHeader } from './http/request-id.js';
import { loggerOptions, requestLog } from './http/request-log.js';
import { requestSpans } from './http/request-spans.js';
import { closeUnfinishedRequestsOnShutdown } from './http/unfinished-requests.js';
import { createValidatorCompilerFactory } from './http/validation.js';
import { openStore, type Store } from './store/database.js';
import { migrateToLatest } from './store/migrate.js';
import { metricsPlugin } from './operations/metrics-plugin.js';
import { operationsPlugin } from './operations/operations-plugin.js';
import { portalPlugin } from './portal/portal-plugin.js';
import { redisPlugin } from './redis/redis-plugin.js';
import { sandboxPlugin } from './sandbox/sandbox-plugin.js';
import { sandboxSchemas } from './sandbox/schemas.js';
import type { UcpOperation, UcpOperationKit } from './ucp/operation.js';
import { UCP_PATHS } from './ucp/endpoints.js';
import { ucpPlugin } from './ucp/ucp-plugin.js';
import { ucpCatalogSchemas } from './ucp/shapes/catalog-schemas.js';

export interface AppOptions {
  config: Config;
  /** An already open store; the app then leaves closing it to the caller. */
  store?: Store;
  /** Pino options or false; defaults to the configured level. */
  logger?: boolean | object;
  /** The time source of sandbox key, cart and idempotency expiry; tests move it on. */
  clock?: () => Date;
  /** Makes the catalog read model's heap budgets (src/catalog/read-model/heap-budget.ts); tests feed them numbers. */
  heapBudget?: () => HeapBudget;
  /** UCP operations served besides the release's (tests of the UCP bindings themselves). */
  extraUcpOperations?: (kit: UcpOperationKit) => readonly UcpOperation<any>[];
}

const BODY_LIMIT_BYTES = 64 * 1024;
const PLUGIN_TIMEOUT_MS = 10 * 60 * 1000;
/** How often Node checks connections against the request time-out (its default, 30 s, would add up to 30 s to it). */
const TIMEOUT_CHECK_INTERVAL_MS = 1000;

/**
 * Builds the whole service without listening: external plugins, then cross-cutting
 * HTTP plugins, then the features. `server.ts` runs it; tests inject into it.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: options.logger ?? loggerOptions(config.logLevel, config.logFormat, process.stdout.isTTY === true),
    // One line per request instead of two: http/request-log.ts.
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: requestIdGenerator(config.trustProxy),
    trustProxy: config.trustProxy,
    // Shutdown: idle keep-alive connections are closed at once and requests arriving on
    // busy ones get 503, so only in-flight requests hold the drain (Fastify's defaults, on purpose).
    forceCloseConnections: 'idle',
    return503OnClosing: true,
    frameworkErrors: frameworkErrorHandler,
    clientErrorHandler,
    // Headers and body together must arrive within the time-out: a client trickling bytes
    // gets 408 instead of holding a connection for as long as it likes.
    requestTimeout: config.requestTimeoutMs,
    http: { headersTimeout: config.requestTimeoutMs, connectionsCheckingInterval: TIMEOUT_CHECK_INTERVAL_MS },
    bodyLimit: BODY_LIMIT_BYTES,
    // The catalog plugin loads the whole catalog before the app is ready: seconds at
    // 100,000 products, more beyond. Fastify's 10 s default would abort such a start.
    pluginTimeout: PLUGIN_TIMEOUT_MS,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
    // Fastify types this factory for its own Ajv pool; ours returns a compiler of the same shape.
    schemaController: { compilersFactory: { buildValidator: createValidatorCompilerFactory() as never } },
  });
  // Response schemas document the contract and the tests check every body against
  // them; serialising with them is slow for the contract's nullable unions (the
  // serializer validates each anyOf branch at run time), and the render functions
  // already build exactly the contract's shapes. serializeJson reuses the text of
  // rendered products between responses.
  app.setSerializerCompiler(() => serializeJson);

  // First, so that every route is traced and each request's span is active in every hook after it.
  if (config.tracing.endpoint) await app.register(await requestSpans());

  const store = options.store ?? openStore(config);
  if (!options.store) app.addHook('onClose', async () => store.close());
  await migrateToLatest(store.db);
  await seedEmptyStore(store.db, config.catalogSeed, app.log);

  for (const schema of [...catalogSchemas, ...sandboxSchemas, ...ucpCatalogSchemas]) app.addSchema(schema);

  await app.register(compression);
  await app.register(openapi, { document: openApiDocument(config) });
  // Each feature answers its own errors in its own context; URLs none claims get the public API's envelope.
  await app.register(errorSurfaces, { fallback: publicApiErrors });
  await app.register(requestIdHeader);
  await app.register(requestLog);
  await app.register(corsPolicy, { origins: config.corsOrigins });
  await app.register(requestGuards);
  await app.register(closeUnfinishedRequestsOnShutdown);
  await app.register(metricsPlugin);
  await app.register(redisPlugin, { config });
  await app.register(rateLimits, {
    onStoreFallback: () => app.metrics.rateLimitFallbacks.inc(),
    onRejection: (limit) => app.metrics.rateLimitRejections.inc({ limit }),
  });
  await app.register(catalogPlugin, { config, store, heapBudget: options.heapBudget });
  await app.register(deliveryPlugin, {
    config,
    store,
    onAttempt: (outcome) => app.metrics.webhookAttempts.inc({ outcome }),
    onChangesApplied: (listener) => app.catalogReadModel.onApplied(listener),
  });
  await app.register(adminPlugin, { config });
  const clock = options.clock ?? (() => new Date());
  await app.register(sandboxPlugin, { config, store, clock });
  await app.register(mcpPlugin, { config });
  await app.register(ucpPlugin, { config, store, clock, extraOperations: options.extraUcpOperations });
  await app.register(acpPlugin, { config, clock });
  await app.register(operationsPlugin, { config, store });
  // Last: the developer portal only reads what the features built (the catalog, the document).
  await app.register(portalPlugin, { config, ucpPaths: UCP_PATHS, acpPaths: ACP_PATHS });
  return app;
}
