import { parseArgs } from 'node:util';
import { MAX_GENERATED_PRODUCTS } from '../tools/catalog-generator/catalog.js';
import { UsageError } from './command-line.js';

export const SOAK_USAGE =
  'usage: npm run soak -- [--minutes 10] [--connections 16] [--idle-seconds 0] [--products N] [--database-url postgres://...] [--redis-url redis://...]';
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

/** The command line of `npm run soak`; `--minutes` takes fractions, so `--minutes 0.2` is a quick check. */
export function parseSoakOptions(argv: string[]): SoakOptions {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        minutes: { type: 'string', default: '10' },
        connections: { type: 'string', default: '16' },
        'idle-seconds': { type: 'string', default: '0' },
        products: { type: 'string' },
        'database-url': { type: 'string' },
        'redis-url': { type: 'string' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const minutes = /^\d+(\.\d+)?$/.test(values.minutes) ? Number(values.minutes) : NaN;
  if (!(minutes > 0 && minutes <= MAX_MINUTES)) throw new UsageError(`--minutes must be a number above 0 and at most ${MAX_MINUTES}, got "${values.minutes}"`);
  return {
    minutes,
    connections: parseInteger('--connections', values.connections, MAX_CONNECTIONS),
    idleSeconds: parseInteger('--idle-seconds', values['idle-seconds'], MAX_IDLE_SECONDS, 0),
    products: values.products === undefined ? undefined : parseInteger('--products', values.products, MAX_GENERATED_PRODUCTS),
    databaseUrl: parseUrl('--database-url', values['database-url'], ['postgres:', 'postgresql:']),
    redisUrl: parseUrl('--redis-url', values['redis-url'], ['redis:', 'rediss:']),
  };
}

function parseInteger(flag: string, text: string, max: number, min = 1): number {
  const value = /^\d+$/.test(text) ? Number(text) : NaN;
  if (!(value >= min && value <= max)) throw new UsageError(`${flag} must be an integer from ${min} to ${max}, got "${text}"`);
  return value;
}

function parseUrl(flag: string, text: string | undefined, protocols: string[]): string | undefined {
  if (text === undefined) return undefined;
  if (!URL.canParse(text) || !protocols.includes(new URL(text).protocol)) throw new UsageError(`${flag} must be a ${protocols.join(' or ')}// URL`);
  return text;
}
