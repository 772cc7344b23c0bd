import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before } from 'node:test';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp, type AppOptions } from '../../src/app.js';
import type { CatalogFile, CatalogFileProduct } from '../../src/catalog/file/catalog-file-schema.js';
import { loadConfig, type Config, type SandboxConfig } from '../../src/config.js';
import { openStore, type Store } from '../../src/store/database.js';
import { catalog as catalogFile, tempDir } from './catalog-builder.js';
import { ContractClient, type CheckedResponse } from './contract.js';
import { deleteRedisKeys, uniqueRedisPrefix } from './redis-keys.js';

export interface TestConfigOverrides extends Partial<Omit<Config, 'sandbox'>> {
  sandbox?: Partial<SandboxConfig>;
}

export interface TestAppOptions {
  /** Applied over the test defaults (own store, rate limits off, slow catalog polling). */
  config?: TestConfigOverrides;
  /** The seeded catalog: the demo catalog unless products (in the builder's regions) or a whole catalog file are given (written as a file and imported). */
  catalog?: CatalogFileProduct[] | CatalogFile | 'demo';
  /** Pino options or false (the default: tests read no logs unless they ask). */
  logger?: AppOptions['logger'];
  /** Runs after the app is built and before it is ready: the last moment to add routes or hooks. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
  /** UCP operations served besides the release's (test/support/ucp-operations.ts). */
  ucpOperations?: AppOptions['extraUcpOperations'];
  /** The read model's heap budgets, fed a test's numbers instead of the process's heap. */
  heapBudget?: AppOptions['heapBudget'];
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  store: Store;
  /** Injects requests and checks every answer against the app's own /openapi.json. */
  client: ContractClient;
  /** The app's clock (sandbox keys, carts and idempotency records expire by it). */
  clock(): Date;
  /** Moves the app's clock forward. */
  advanceClock(ms: number): void;
  /** The id of a variant of the seeded catalog by SKU. */
  variantId(sku: string): Promise<string>;
  /** A new sandbox key (all scopes unless given); returns its access token. */
  newKey(scopes?: string[]): Promise<string>;
  /** A new sandbox cart of the key (each under an idempotency key of its own). */
  newCart(token: string, body?: object): Promise<{ id: string } & Record<string, unknown>>;
  /** A request through the contract client with the key's Authorization header. */
  call(token: string | undefined, method: string, url: string, payload?: unknown, headers?: Record<string, string>): Promise<CheckedResponse>;
  close(): Promise<void>;
}

/**
 * The service as tests use it, started fresh (the caller closes it): on SQLite in memory,
 * or, when DATABASE_URL is set (the production CI pass), on a database of that server of
 * its own that is dropped on close; and when REDIS_URL is set, under a Redis key prefix of
 * its own whose keys are deleted on close. A test that passes `databaseUrl` or
 * `redisKeyPrefix` owns that database or prefix. Rate limits are off unless a test sets
 * them, so tests do not throttle each other.
 */
export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const { config: overrides = {}, catalog = 'demo', logger = false, beforeReady, ucpOperations, heapBudget } = options;
  const base = loadConfig();
  const database = base.databaseUrl && !('databaseUrl' in overrides) ? await createDatabase(base.databaseUrl) : undefined;
  const redisPrefix = base.redisUrl && !('redisKeyPrefix' in overrides) ? uniqueRedisPrefix() : undefined;
  let clockOffsetMs = 0;
  const clock = () => new Date(Date.now() + clockOffsetMs);
  const seedDir = catalog === 'demo' ? undefined : await tempDir();
  let app: FastifyInstance;
  let config: Config;
  let store: Store;
  try {
    config = {
      ...base,
      dataDir: ':memory:',
      sqlitePath: ':memory:',
      databaseUrl: database?.url,
      redisKeyPrefix: redisPrefix ?? base.redisKeyPrefix,
      catalogRateLimit: 0,
      catalogSeed: seedDir ? await seedDir.writeJson('catalog.json', Array.isArray(catalog) ? catalogFile(catalog) : catalog) : 'demo',
      catalogPollMs: 60_000,
      ...overrides,
      sandbox: { ...base.sandbox, keyRateLimit: 0, cartRateLimit: 0, ...overrides.sandbox },
    };
    store = openStore(config);
    app = await buildApp({ config, store, logger, clock, extraUcpOperations: ucpOperations, heapBudget });
    await beforeReady?.(app);
    // Seeds the store from the catalog file: the file is not needed afterwards.
    await app.ready();
  } finally {
    await seedDir?.remove();
  }
  const client = new ContractClient(app);
  let cartsCreated = 0;

  const call: TestApp['call'] = (token, method, url, payload, headers = {}) =>
    client.request({
      method,
      url,
      headers: { ...(token && { authorization: `Bearer ${token}` }), ...headers },
      ...(payload !== undefined && { payload: payload as object }),
    });

  return {
    app,
    config,
    store,
    client,
    clock,
    advanceClock: (ms) => {
      clockOffsetMs += ms;
    },
    call,
    variantId: async (sku) => {
      const row = await store.db.selectFrom('variants').select('id').where('sku', '=', sku).executeTakeFirstOrThrow();
      return row.id;
    },
    newKey: async (scopes) => {
      const response = await call(undefined, 'POST', '/sandbox/v1/keys', scopes && { scopes });
      assert.equal(response.statusCode, 201, response.body);
      return response.data.access_token as string;
    },
    newCart: async (token, body) => {
      const response = await call(token, 'POST', '/sandbox/v1/carts', body, { 'idempotency-key': `new-cart-${++cartsCreated}` });
      assert.equal(response.statusCode, 201, response.body);
      return response.data;
    },
    close: async () => {
      await app.close();
      await store.close();
      await database?.drop();
      if (redisPrefix) await deleteRedisKeys(base.redisUrl!, redisPrefix);
    },
  };
}

/**
 * `startTestApp` for the enclosing `describe` (or the whole file, at top level): started
 * before its first test and closed after its last. Its members exist from `before` on, so
 * read them inside tests and hooks only.
 */
export function useTestApp(options: TestAppOptions = {}): TestApp {
  let testApp: TestApp | undefined;
  before(async () => {
    testApp = await startTestApp(options);
  });
  after(() => testApp?.close());
  return new Proxy({} as TestApp, {
    get: (_, member) => {
      if (!testApp) throw new Error('The test app is used outside a test');
      return testApp[member as keyof TestApp];
    },
  });
}

/**
 * A database of its own per test app. Not a schema: Kysely's migrator introspects every
 * schema of a database, and another test file dropping its schema meanwhile fails it.
 */
export async function createDatabase(databaseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `vetrina_test_${randomBytes(6).toString('hex')}`;
  await withClient(databaseUrl, (client) => client.query(`CREATE DATABASE ${name}`));
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withClient(databaseUrl, (client) => client.query(`DROP DATABASE ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

async function withClient<T>(databaseUrl: string, use: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return await use(client);
  } finally {
    await client.end();
  }
}
