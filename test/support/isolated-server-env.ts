import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '../../src/config.js';
import { deleteRedisKeys, uniqueRedisPrefix } from './redis-keys.js';
import { createDatabase } from './test-app.js';

export interface IsolatedServerEnv {
  /** For startServerProcess/runCli: processes given the same env share one store and one Redis prefix. */
  env: Record<string, string>;
  /** Drops the database (or the SQLite directory) and deletes the Redis keys. */
  cleanup(): Promise<void>;
}

/**
 * A fresh store for server processes, in the profile the test run uses: a new database
 * when DATABASE_URL is set, else a SQLite file in a new directory; and a new Redis key
 * prefix when REDIS_URL is set. Nothing the processes write outlives the test.
 */
export async function isolatedServerEnv(): Promise<IsolatedServerEnv> {
  const { databaseUrl, redisUrl } = loadConfig();
  const database = databaseUrl ? await createDatabase(databaseUrl) : undefined;
  const dataDir = database ? undefined : await mkdtemp(path.join(os.tmpdir(), 'vetrina-process-'));
  const redisKeyPrefix = redisUrl ? uniqueRedisPrefix() : undefined;
  return {
    env: {
      DATABASE_URL: database?.url ?? '',
      ...(dataDir && { DATA_DIR: dataDir }),
      ...(redisKeyPrefix && { REDIS_KEY_PREFIX: redisKeyPrefix }),
    },
    cleanup: async () => {
      await database?.drop();
      if (dataDir) await rm(dataDir, { recursive: true, force: true });
      if (redisKeyPrefix) await deleteRedisKeys(redisUrl!, redisKeyPrefix);
    },
  };
}
