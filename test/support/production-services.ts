import { loadConfig } from '../../src/config.js';

/**
 * The production profile's services as the environment names them: CI's second pass
 * sets DATABASE_URL and REDIS_URL (so does `npm run test:pg`). Tests that need them
 * skip themselves, with one of these reasons, when they are missing.
 */
const { databaseUrl, redisUrl } = loadConfig();

export { databaseUrl as postgresUrl, redisUrl };
export const productionServices = databaseUrl && redisUrl ? { databaseUrl, redisUrl } : undefined;

const HOW = '(CI production pass; locally npm run test:pg)';
export const needsPostgres = databaseUrl ? false : `needs PostgreSQL: set DATABASE_URL ${HOW}`;
export const needsRedis = redisUrl ? false : `needs Redis: set REDIS_URL ${HOW}`;
export const needsProductionServices = productionServices ? false : `needs PostgreSQL and Redis: set DATABASE_URL and REDIS_URL ${HOW}`;
