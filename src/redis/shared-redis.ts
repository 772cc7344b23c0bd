import type { FastifyBaseLogger } from 'fastify';
import { Redis, type RedisOptions } from 'ioredis';
import { throttledWarning } from '../lib/throttled-warning.js';
import { withTimeout } from '../lib/with-timeout.js';

const CONNECT_TIMEOUT_MS = 2000;

/**
 * Every connection fails fast rather than queueing while Redis is away (a request must
 * never wait for Redis: the callers fall back), and keeps reconnecting on its own, at
 * most every 2 s, so the service recovers without a restart.
 */
const FAIL_FAST: RedisOptions = {
  connectTimeout: CONNECT_TIMEOUT_MS,
  commandTimeout: 500,
  maxRetriesPerRequest: 1,
  enableOfflineQueue: false,
  retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
};

/** The Redis that all instances of one deployment share. */
export interface SharedRedis {
  /** Rate-limit counters, publishing, readiness pings. */
  commands: Redis;
  /** A connection in subscriber mode can do nothing else, so notifications get their own. */
  subscriber: Redis;
  /** Starts every key and channel name of this deployment. */
  keyPrefix: string;
  close(): void;
}

export function connectSharedRedis(url: string, keyPrefix: string, log: FastifyBaseLogger): SharedRedis {
  const open = (role: string) => {
    // Subscriptions are renewed by the subscriber on every `ready` (see onEveryReady).
    const client = new Redis(url, { ...FAIL_FAST, autoResubscribe: false });
    client.on('error', throttledWarning(log, `Redis ${role} connection failed; reconnecting`));
    return client;
  };
  const commands = open('commands');
  const subscriber = open('subscriber');
  return {
    commands,
    subscriber,
    keyPrefix,
    close: () => {
      commands.disconnect();
      subscriber.disconnect();
    },
  };
}

/**
 * Resolves once both connections are ready, or after one connect timeout, whichever
 * comes first: a normal start then counts its first request in Redis like every later
 * one, and a start during a Redis outage goes on without it.
 */
export async function settleConnections(redis: SharedRedis): Promise<boolean> {
  const ready = (client: Redis) =>
    client.status === 'ready' ? Promise.resolve() : new Promise<void>((resolve) => client.once('ready', resolve));
  return withTimeout(Promise.all([ready(redis.commands), ready(redis.subscriber)]), CONNECT_TIMEOUT_MS, 'Redis').then(
    () => true,
    () => false,
  );
}

/** Runs `action` now if the connection is ready, and again after every reconnection. */
export function onEveryReady(client: Redis, action: () => void): void {
  if (client.status === 'ready') action();
  client.on('ready', action);
}

/** Publishes one message on a connection of its own, for short-lived processes (the import CLI). */
export async function publishOnce(url: string, channel: string, message: string): Promise<void> {
  const client = new Redis(url, { ...FAIL_FAST, lazyConnect: true, retryStrategy: () => null });
  // connect() rejects with the same error; the listener only keeps ioredis from printing it.
  client.on('error', () => {});
  try {
    await client.connect();
    await client.publish(channel, message);
  } finally {
    client.disconnect();
  }
}
