import { MAX_GENERATED_PRODUCTS } from '../tools/catalog-generator/catalog.js';
import { integerOption, positiveNumberOption, UsageError, type Parsed } from '../src/lib/command-line.js';

export const SOAK_USAGE = `usage: npm run soak -- [--minutes 10] [--connections 16] [--idle-seconds 0] [--products N] [--database-url postgres://...] [--redis-url redis://...]

Builds the server and runs it under mixed catalog, sandbox and MCP load
for MINUTES (fractions allowed) on CONNECTIONS connections, on the demo catalog or a
generated one of N products, on SQLite or the given PostgreSQL (and Redis), then idles
IDLE-SECONDS; exits 1 when a request failed or the server did not stay up.`;
const MAX_MINUTES = 24 * 60;
const MAX_CONNECTIONS = 1024;
const MAX_IDLE_SECONDS = 3600;

export interface SoakOptions {
  minutes: number;
  connections: number;
  /** How long the server idles after the load before it is stopped: idle-time work (timers, garbage collection) must not kill it. */
  idleSeconds: number;
  /** A generated catalog of this many products; the demo catalog when absent. */
  products: number | undefined;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
}

/** The options of `npm run soak`, for `commandLineOrExit` (src/lib/command-line.ts). */
export const SOAK_ARGUMENTS = {
  options: {
    minutes: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    'idle-seconds': { type: 'string', default: '0' },
    products: { type: 'string' },
    'database-url': { type: 'string' },
    'redis-url': { type: 'string' },
  },
} as const;

/** The command line of `npm run soak` checked; `--minutes` takes fractions, so `--minutes 0.2` is a quick check. */
export function soakOptions({ values }: Parsed<typeof SOAK_ARGUMENTS>): SoakOptions {
  return {
    minutes: positiveNumberOption('--minutes', values.minutes, MAX_MINUTES),
    connections: integerOption('--connections', values.connections, 1, MAX_CONNECTIONS),
    idleSeconds: integerOption('--idle-seconds', values['idle-seconds'], 0, MAX_IDLE_SECONDS),
    products: values.products === undefined ? undefined : integerOption('--products', values.products, 1, MAX_GENERATED_PRODUCTS),
    databaseUrl: parseUrl('--database-url', values['database-url'], ['postgres:', 'postgresql:']),
    redisUrl: parseUrl('--redis-url', values['redis-url'], ['redis:', 'rediss:']),
  };
}

function parseUrl(flag: string, text: string | undefined, protocols: string[]): string | undefined {
  if (text === undefined) return undefined;
  if (!URL.canParse(text) || !protocols.includes(new URL(text).protocol)) throw new UsageError(`${flag} must be a ${protocols.join(' or ')}// URL`);
  return text;
}
