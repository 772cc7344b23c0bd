import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { buildApp, type AppOptions } from '../../src/app.js';
import { loadConfig, type Config, type SandboxConfig } from '../../src/config.js';
import { openStore, type Store } from '../../src/store/database.js';
import { deleteRedisKeys, uniqueRedisPrefix } from './redis-keys.js';

export interface TestConfigOverrides extends Partial<Omit<Config, 'sandbox'>> {
  sandbox?: Partial<SandboxConfig>;
}

export interface TestApp {
  app: FastifyInstance;
  config: Config;
  store: Store;
  close(): Promise<void>;
}

export interface TestAppOptions extends Partial<AppOptions> {
  /** Runs after the app is built and before it is ready: the last moment to add routes or hooks. */
  beforeReady?: (app: FastifyInstance) => void | Promise<void>;
}

/**
 * The service as tests use it: on SQLite in memory, or, when DATABASE_URL is set (the
 * production CI pass), on a fresh database of that server that is dropped on close; and
 * when REDIS_URL is set, under a Redis key prefix of its own whose keys are deleted on
 * close. A test that passes `databaseUrl` or `redisKeyPrefix` owns that database or prefix.
 * Rate limits are off unless a test sets them, so tests do not throttle each other.
 */
export async function startTestApp(overrides: TestConfigOverrides = {}, options: TestAppOptions = {}): Promise<TestApp> {
  const { beforeReady, ...appOptions } = options;
  const base = loadConfig();
  const database = base.databaseUrl && !('databaseUrl' in overrides) ? await createDatabase(base.databaseUrl) : undefined;
  const redisPrefix = base.redisUrl && !('redisKeyPrefix' in overrides) ? uniqueRedisPrefix() : undefined;
  const config: Config = {
    ...base,
    dataDir: ':memory:',
    sqlitePath: ':memory:',
    databaseUrl: database?.url,
    redisKeyPrefix: redisPrefix ?? base.redisKeyPrefix,
    catalogRateLimit: 0,
    catalogSeed: 'demo',
    catalogPollMs: 60_000,
    ...overrides,
    sandbox: { ...base.sandbox, keyRateLimit: 0, cartRateLimit: 0, ...overrides.sandbox },
  };
  const store = openStore(config);
  const app = await buildApp({ config, store, logger: false, ...appOptions });
  await beforeReady?.(app);
  await app.ready();
  return {
    app,
    config,
    store,
    close: async () => {
      await app.close();
      await store.close();
      await database?.drop();
      if (redisPrefix) await deleteRedisKeys(base.redisUrl!, redisPrefix);
    },
  };
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
