import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

/** A key prefix no other test app uses, so apps sharing the CI Redis never see each other's counters. */
export function uniqueRedisPrefix(): string {
  return `vetrina-test-${randomBytes(6).toString('hex')}:`;
}

/** Deletes the keys under `prefix` and nothing else: the Redis may hold other apps' keys. */
export async function deleteRedisKeys(redisUrl: string, prefix: string): Promise<void> {
  const redis = new Redis(redisUrl, { lazyConnect: true });
  await redis.connect();
  try {
    for await (const keys of redis.scanStream({ match: `${prefix}*`, count: 1000 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) await redis.del(...keys);
    }
  } finally {
    redis.disconnect();
  }
}
