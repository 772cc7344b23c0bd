import { createHash } from 'node:crypto';
import { isIP } from 'node:net';
import path from 'node:path';
import { TOKEN_PREFIX, TOKEN_SHAPE, TOKEN_SHAPE_RULE } from './sandbox/tokens.js';
import { LOCALES } from './catalog/model/locales.js';

/**
 * Every setting the service reads from its environment. This module is the only
 * reader of `process.env`: everything else receives a `Config`.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** SQLite file path, or `:memory:` (tests). Ignored when `databaseUrl` is set. */
  sqlitePath: string;
  databaseUrl: string | undefined;
  databasePoolSize: number;
  redisUrl: string | undefined;
  /** Starts every Redis key and channel name, so several deployments can share one Redis. */
  redisKeyPrefix: string;
  /**
   * Fastify's `trustProxy`: the proxy addresses/CIDRs whose X-Forwarded-For names the
   * client. `false`: the socket address is the client.
   */
  trustProxy: string[] | false;
  /** When set, GET /metrics answers only `Authorization: Bearer <metricsToken>`. */
  metricsToken: string | undefined;
  tracing: TracingConfig;
  logLevel: string;
  /** JSON lines, readable lines (pino-pretty), or readable ones only when standard output is a terminal. */
  logFormat: LogFormat;
  publicBaseUrl: string;
  storefrontUrl: string;
  /** Requests per client IP per minute on the catalog routes; 0 switches the limit off. */
  catalogRateLimit: number;
  /**
   * Clients (addresses or CIDRs) whose catalog window holds `trustedCatalogRateLimit`
   * instead: storefront servers that send every shopper's requests from one address.
   */
  trustedCatalogClients: string[];
  /** Requests per trusted client IP per minute; 0 switches their limit off. */
  trustedCatalogRateLimit: number;
  /** How long browsers and shared caches may keep a catalog answer, and serve it stale while they revalidate. */
  catalogCache: CatalogCacheConfig;
  /** Origins whose pages may call the service (CORS); `*`: any origin. */
  corsOrigins: string[] | '*';
  /** What to load when the store has no products: `demo`, `none`, or a catalog file path. */
  catalogSeed: string;
  /** How often each instance checks the store for catalog changes made elsewhere. */
  catalogPollMs: number;
  /** How far past the live heap V8 lets the old space grow before its next full collection, in percent; 0 leaves it to V8 (src/operations/heap-tuning.ts). */
  heapGrowthPercent: number;
  /** Whether V8 favours memory over speed once the catalog is loaded, so that its full collections compact the old space (src/operations/heap-tuning.ts). */
  heapOptimizeForSize: boolean;
  /** The public change feed and its stream (docs/changes.md). */
  changeFeed: ChangeFeedConfig;
  /**
   * How long a client may take to send a whole request (headers and body); after that it
   * gets 408 and the connection is closed, so a client trickling a body cannot hold a
   * connection (or a shutdown) open.
   */
  requestTimeoutMs: number;
  /** Hostnames the MCP endpoints accept in Host and Origin headers (DNS-rebinding protection). */
  mcpAllowedHosts: string[];
  /** What one JSON-RPC batch on an MCP endpoint may ask for (docs/decisions.md, MCP batches). */
  mcpBatch: McpBatchConfig;
  sandbox: SandboxConfig;
  admin: AdminConfig;
  webhooks: WebhookConfig;
  ucp: UcpConfig;
  acp: AcpConfig;
}

/**
 * OpenTelemetry tracing (src/operations/tracing.ts). The SDK reads the other standard
 * OTEL_* variables (headers, sampler, resource attributes, limits) itself.
 */
export interface TracingConfig {
  /** Where traces are sent (OTLP over HTTP); undefined: tracing is off and its SDK never loaded. */
  endpoint: string | undefined;
  /** The traces' `service.name`. */
  serviceName: string;
}

/** The Agentic Commerce Protocol surface (docs/acp.md). */
export interface AcpConfig {
  /** When set, every ACP request must carry a valid `Signature` and `Timestamp` made with it (docs/acp.md, Request signatures). */
  signingSecret: string | undefined;
  /** How far a request's `Timestamp` may be from this server's clock, either way. */
  signatureToleranceSeconds: number;
  /** Where catalog changes are pushed as feed upserts; undefined: no push. */
  feedPush: AcpFeedPushConfig | undefined;
}

/** An agent's Feed API that receives this catalog's product upserts (docs/acp.md, Pushing changes). */
export interface AcpFeedPushConfig {
  /** The Feed API's base URL: upserts are PATCHed to `{url}/feeds/{feedId}/products`. */
  url: string;
  /** The bearer token the Feed API gave this merchant. */
  key: string;
  /** The feed the agent made for this catalog. */
  feedId: string;
  /** The market whose prices and availability are pushed. */
  country: string;
  /** The language of what is pushed. */
  locale: string;
}

/** The Universal Commerce Protocol surface (docs/ucp.md). */
export interface UcpConfig {
  /**
   * Accept `http://` platform profiles on loopback addresses (local development): a
   * deliberate relaxation of the protocol's https-only rule, and nothing more.
   */
  allowLoopbackHttp: boolean;
  /** Each platform profile fetch, from connecting to the last byte of the answer. */
  profileTimeoutMs: number;
  /** The largest platform profile read; a longer one is refused. */
  profileMaxBytes: number;
  /** Platform profiles kept in memory at once (least recently used ones make room). */
  profileCacheSize: number;
}

/** Webhook delivery (docs/webhooks.md). */
export interface WebhookConfig {
  /** Allow targets in private, loopback and link-local ranges (closed networks, tests). */
  allowPrivateTargets: boolean;
  /** Each attempt, from connecting to the last byte of the answer. */
  timeoutMs: number;
  /** The most bytes of an answer read; a longer one fails the attempt. */
  maxResponseBytes: number;
  /** Attempts per delivery before it is given up (and its subscription paused). */
  maxAttempts: number;
  /** The wait before the second attempt; it doubles with each attempt after, with jitter. */
  retryBaseMs: number;
  /** The longest wait between two attempts. */
  retryMaxDelayMs: number;
  /** How long after the event a delivery is retried at most, whatever the attempts left. */
  retryForMs: number;
  /** How often each instance turns new catalog changes into deliveries and sends those due. */
  pollMs: number;
  /** Attempts one instance has under way at once; each runs on its own. */
  concurrency: number;
  /** Of them, attempts to one webhook: a receiver that hangs holds this many at most. */
  concurrencyPerWebhook: number;
  /** /readyz fails when a catalog change has waited longer than this to become deliveries. */
  outboxStuckMs: number;
}

export interface McpBatchConfig {
  /** Messages per batch; the MCP SDK itself takes at most 100. */
  maxMessages: number;
  /** Bytes of answers per batch: the call whose answer passes it, and every call after it, are refused. */
  maxAnswerBytes: number;
}

export interface ChangeFeedConfig {
  /** How long the change log keeps a change: the feed's cursors stay valid this long, and an instance down longer rebuilds its read model. */
  retentionHours: number;
  /** Seconds between the comment lines that keep an idle change stream open through proxies. */
  heartbeatSeconds: number;
  /** Change streams one client IP may hold open at once on one instance. */
  maxStreamsPerClient: number;
  /** Change streams one instance holds open at once. */
  maxStreams: number;
}

export interface CatalogCacheConfig {
  /** `max-age` of catalog answers, in seconds; 0: caches revalidate every time (with the ETag). */
  maxAgeSeconds: number;
  /** `stale-while-revalidate`, in seconds; 0 leaves it out. */
  staleWhileRevalidateSeconds: number;
}

/** One system allowed to write through the admin API; only a digest of its token is kept. */
export interface AdminToken {
  /** Names the caller in the audit trail and owns its rate-limit window. */
  name: string;
  /** SHA-256 of the token. */
  sha256: Buffer;
}

export interface AdminConfig {
  /** Empty: the admin API is off and every /admin URL answers 404. */
  tokens: AdminToken[];
  /** Admin requests per token per minute; 0 switches the limit off. */
  rateLimit: number;
  /** The largest catalog file POST /admin/v1/imports accepts. */
  importMaxBytes: number;
  /** Ended import jobs kept; older ones are deleted as new ones are created. */
  importJobsRetained: number;
}

export interface SandboxConfig {
  enabled: boolean;
  publicKey: string;
  /** Key issuance per client IP per hour; 0 switches the limit off. */
  keyRateLimit: number;
  /** Cart route calls per sandbox key per minute; 0 switches the limit off. */
  cartRateLimit: number;
  /** Shipping amount in minor units per currency. */
  shippingAmounts: Record<string, number>;
  purgeIntervalMs: number;
}

export type LogFormat = 'auto' | 'json' | 'pretty';

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
    this.name = 'ConfigError';
  }
}

type Env = Record<string, string | undefined>;

/**
 * A configured limit as descriptions and instructions state it, e.g. `limitInWords(500,
 * 'requests per client IP per minute')`; 0 switches a limit off.
 */
export function limitInWords(max: number, unit: string): string {
  return max > 0 ? `${max} ${unit}` : 'switched off on this deployment';
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const LOG_FORMATS: LogFormat[] = ['auto', 'json', 'pretty'];
const DEFAULT_SHIPPING = 'EUR:490,GBP:450,USD:595,CHF:690';
const GIBIBYTE = 1024 ** 3;
/**
 * The default largest import over HTTP: what an instance given 1 GB (docs/deploy.md)
 * imports beside the catalog it serves. The 100,000 products it is sized for make a
 * 270 MB file, and an import holds the file's handles and SKUs, which grow with it.
 */
const DEFAULT_IMPORT_MAX_BYTES = 320 * 1024 ** 2;
const ADMIN_TOKEN_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
/** An RFC 6750 bearer token (token68), long enough not to be guessed. */
const ADMIN_TOKEN = /^[A-Za-z0-9._~+/-]{24,}=*$/;

export function loadConfig(env: Env = process.env): Config {
  const problems: string[] = [];
  const read = new EnvReader(env, problems);

  const port = read.integer('PORT', 3000, 0, 65535);
  const host = read.string('HOST', '127.0.0.1');
  const dataDir = read.string('DATA_DIR', './data');
  const publicBaseUrl = read.url('PUBLIC_BASE_URL', `http://${host.includes(':') ? `[${host}]` : host}:${port}`);

  const config: Config = {
    port,
    host,
    dataDir,
    sqlitePath: dataDir === ':memory:' ? ':memory:' : path.join(dataDir, 'vetrina.sqlite'),
    databaseUrl: read.optionalUrl('DATABASE_URL', ['postgres:', 'postgresql:']),
    databasePoolSize: read.integer('DATABASE_POOL_SIZE', 10, 1, 200),
    redisUrl: read.optionalUrl('REDIS_URL', ['redis:', 'rediss:']),
    redisKeyPrefix: read.string('REDIS_KEY_PREFIX', 'vetrina:'),
    trustProxy: read.trustProxy('TRUST_PROXY'),
    metricsToken: read.optionalSecret('METRICS_TOKEN', 16),
    tracing: {
      endpoint: read.optionalUrl('OTEL_EXPORTER_OTLP_ENDPOINT', ['http:', 'https:']),
      serviceName: read.string('OTEL_SERVICE_NAME', 'vetrina'),
    },
    logLevel: read.oneOf('LOG_LEVEL', 'info', LOG_LEVELS),
    logFormat: read.oneOf('LOG_FORMAT', 'auto', LOG_FORMATS) as LogFormat,
    publicBaseUrl,
    storefrontUrl: read.url('STOREFRONT_URL', publicBaseUrl),
    catalogRateLimit: read.integer('CATALOG_RATE_LIMIT', 120, 0, 1_000_000),
    trustedCatalogClients: read.addresses('CATALOG_TRUSTED_CLIENTS'),
    trustedCatalogRateLimit: read.integer('CATALOG_TRUSTED_RATE_LIMIT', 6000, 0, 1_000_000),
    catalogCache: {
      maxAgeSeconds: read.integer('CATALOG_CACHE_MAX_AGE', 30, 0, 86_400),
      staleWhileRevalidateSeconds: read.integer('CATALOG_CACHE_STALE_WHILE_REVALIDATE', 60, 0, 86_400),
    },
    corsOrigins: read.origins('CORS_ORIGINS'),
    catalogSeed: read.string('CATALOG_SEED', 'demo'),
    catalogPollMs: read.integer('CATALOG_POLL_MS', 1000, 50, 3_600_000),
    heapGrowthPercent: read.integer('HEAP_GROWTH_PERCENT', 30, 0, 400),
    heapOptimizeForSize: read.boolean('HEAP_OPTIMIZE_FOR_SIZE', true),
    changeFeed: {
      retentionHours: read.integer('CHANGE_FEED_RETENTION_HOURS', 24, 1, 8760),
      heartbeatSeconds: read.integer('CHANGE_STREAM_HEARTBEAT_SECONDS', 15, 1, 3600),
      maxStreamsPerClient: read.integer('CHANGE_STREAM_MAX_PER_CLIENT', 4, 1, 10_000),
      maxStreams: read.integer('CHANGE_STREAM_MAX', 1000, 1, 1_000_000),
    },
    requestTimeoutMs: read.integer('REQUEST_TIMEOUT_MS', 15_000, 1000, 300_000),
    mcpAllowedHosts: read.list('MCP_ALLOWED_HOSTS', defaultMcpHosts(host, publicBaseUrl)),
    mcpBatch: {
      maxMessages: read.integer('MCP_BATCH_MAX_MESSAGES', 20, 1, 100),
      maxAnswerBytes: read.integer('MCP_BATCH_MAX_ANSWER_BYTES', 1024 * 1024, 1024, GIBIBYTE),
    },
    sandbox: {
      enabled: read.boolean('SANDBOX_ENABLED', true),
      publicKey: read.string('SANDBOX_PUBLIC_KEY', 'sbx_test_public_catalog_read'),
      keyRateLimit: read.integer('SANDBOX_KEY_RATE_LIMIT', 20, 0, 1_000_000),
      cartRateLimit: read.integer('SANDBOX_CART_RATE_LIMIT', 300, 0, 1_000_000),
      shippingAmounts: read.amounts('SANDBOX_SHIPPING_AMOUNTS', DEFAULT_SHIPPING),
      purgeIntervalMs: read.integer('SANDBOX_PURGE_INTERVAL_MS', 600_000, 1000, 86_400_000),
    },
    admin: {
      tokens: read.adminTokens('ADMIN_TOKENS'),
      rateLimit: read.integer('ADMIN_RATE_LIMIT', 12_000, 0, 1_000_000),
      importMaxBytes: read.integer('ADMIN_IMPORT_MAX_BYTES', DEFAULT_IMPORT_MAX_BYTES, 1024, 64 * GIBIBYTE),
      importJobsRetained: read.integer('ADMIN_IMPORT_JOBS_RETAINED', 100, 1, 100_000),
    },
    webhooks: {
      allowPrivateTargets: read.boolean('WEBHOOK_ALLOW_PRIVATE_TARGETS', false),
      timeoutMs: read.integer('WEBHOOK_TIMEOUT_MS', 10_000, 100, 120_000),
      maxResponseBytes: read.integer('WEBHOOK_MAX_RESPONSE_BYTES', 64 * 1024, 0, 16 * 1024 ** 2),
      maxAttempts: read.integer('WEBHOOK_MAX_ATTEMPTS', 12, 1, 100),
      retryBaseMs: read.integer('WEBHOOK_RETRY_BASE_MS', 10_000, 1, 86_400_000),
      retryMaxDelayMs: read.integer('WEBHOOK_RETRY_MAX_DELAY_MS', 3_600_000, 1, 86_400_000),
      retryForMs: read.integer('WEBHOOK_RETRY_FOR_MS', 86_400_000, 1000, 7 * 86_400_000),
      pollMs: read.integer('WEBHOOK_POLL_MS', 1000, 10, 3_600_000),
      concurrency: read.integer('WEBHOOK_CONCURRENCY', 64, 1, 1000),
      concurrencyPerWebhook: read.integer('WEBHOOK_CONCURRENCY_PER_WEBHOOK', 16, 1, 1000),
      outboxStuckMs: read.integer('WEBHOOK_OUTBOX_STUCK_MS', 300_000, 1000, 86_400_000),
    },
    ucp: {
      allowLoopbackHttp: read.boolean('UCP_ALLOW_LOOPBACK_HTTP', false),
      profileTimeoutMs: read.integer('UCP_PROFILE_TIMEOUT_MS', 5000, 100, 60_000),
      profileMaxBytes: read.integer('UCP_PROFILE_MAX_BYTES', 256 * 1024, 1024, 16 * 1024 ** 2),
      profileCacheSize: read.integer('UCP_PROFILE_CACHE_SIZE', 1000, 1, 1_000_000),
    },
    acp: {
      signingSecret: read.optionalSecret('ACP_SIGNING_SECRET', 16),
      signatureToleranceSeconds: read.integer('ACP_SIGNATURE_TOLERANCE_SECONDS', 300, 1, 3600),
      feedPush: read.feedPush(),
    },
  };
  // A key of another shape would be accepted here and then refused by every request.
  if (!TOKEN_SHAPE.test(config.sandbox.publicKey)) problems.push(`SANDBOX_PUBLIC_KEY must ${TOKEN_SHAPE_RULE}`);
  if (problems.length > 0) throw new ConfigError(problems);
  return config;
}

const TRUST_EVERYONE = new Set(['true', 'yes', 'on', '*', 'all', 'any', 'everything', '0.0.0.0/0', '::/0']);
/** What the TRUST_PROXY errors suggest instead; every example in it is accepted. */
const PROXY_ADDRESSES_EXAMPLE = "set the load balancer's addresses or CIDRs (e.g. 10.0.0.0/8, or uniquelocal for every private network)";
const PROXY_ADDRESS_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_ADDRESS_NAMES.has(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function isOrigin(entry: string): boolean {
  try {
    const url = new URL(entry);
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === entry;
  } catch {
    return false;
  }
}

/** Loopback names, the bound host unless it is a wildcard, and the public host. */
function defaultMcpHosts(host: string, publicBaseUrl: string): string[] {
  const hosts = new Set(['localhost', '127.0.0.1', '[::1]', new URL(publicBaseUrl).hostname.toLowerCase()]);
  if (host !== '0.0.0.0' && host !== '::') hosts.add(host.includes(':') ? `[${host}]` : host);
  return [...hosts];
}

class EnvReader {
  constructor(
    private readonly env: Env,
    private readonly problems: string[],
  ) {}

  private raw(name: string): string | undefined {
    const value = this.env[name]?.trim();
    return value === '' ? undefined : value;
  }

  string(name: string, fallback: string): string {
    return this.raw(name) ?? fallback;
  }

  integer(name: string, fallback: number, min: number, max: number): number {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    const parsed = Number(value);
    if (!/^-?\d+$/.test(value) || parsed < min || parsed > max) {
      this.problems.push(`${name} must be an integer from ${min} to ${max} (got "${value}")`);
      return fallback;
    }
    return parsed;
  }

  boolean(name: string, fallback: boolean): boolean {
    const value = this.raw(name)?.toLowerCase();
    if (value === undefined) return fallback;
    if (['1', 'true', 'yes', 'on'].includes(value)) return true;
    if (['0', 'false', 'no', 'off'].includes(value)) return false;
    this.problems.push(`${name} must be true or false (got "${value}")`);
    return fallback;
  }

  oneOf(name: string, fallback: string, allowed: string[]): string {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    if (!allowed.includes(value)) {
      this.problems.push(`${name} must be one of ${allowed.join(', ')} (got "${value}")`);
      return fallback;
    }
    return value;
  }

  url(name: string, fallback: string): string {
    return (this.optionalUrl(name, ['http:', 'https:']) ?? fallback).replace(/\/+$/, '');
  }

  optionalUrl(name: string, protocols: string[]): string | undefined {
    const value = this.raw(name);
    if (value === undefined) return undefined;
    // The URL parser drops tabs and line breaks, but the text is used as given (in Link
    // headers, documents and links), where a CR or LF would split a header.
    if (/[\s\p{Cc}]/u.test(value)) {
      this.problems.push(`${name} must be a URL without spaces, line breaks or other control characters`);
      return undefined;
    }
    let protocol: string | undefined;
    try {
      protocol = new URL(value).protocol;
    } catch {
      protocol = undefined;
    }
    if (protocol === undefined || !protocols.includes(protocol)) {
      this.problems.push(`${name} must be a ${protocols.join(' or ')}// URL`);
      return undefined;
    }
    return value;
  }

  optionalSecret(name: string, minLength: number): string | undefined {
    const value = this.raw(name);
    if (value !== undefined && value.length < minLength) {
      this.problems.push(`${name} must be at least ${minLength} characters long`);
      return undefined;
    }
    return value;
  }

  /**
   * Comma-separated proxy addresses/CIDRs, or proxy-addr's `loopback`, `linklocal`,
   * `uniquelocal`. Trusting every sender would let any client choose its own address,
   * and so its own rate-limit window: that is refused outright. So is a hop count: it
   * trusts whoever connects, so a client reaching an instance directly could choose its
   * address too (Fastify 5.12.1 stopped honouring hop counts for that reason; it now
   * silently trusts nobody, which would put every client behind the proxy in one window).
   */
  trustProxy(name: string): string[] | false {
    const value = this.raw(name);
    if (value === undefined) return false;
    if (/^\d+$/.test(value)) {
      this.problems.push(
        `${name}="${value}": hop counts are not supported, since they trust whoever connects directly; ${PROXY_ADDRESSES_EXAMPLE}`,
      );
      return false;
    }
    const entries = this.list(name, []);
    if (entries.some((entry) => TRUST_EVERYONE.has(entry))) {
      this.problems.push(
        `${name}="${value}" would trust X-Forwarded-For from every client, so any client could pick its own address; ${PROXY_ADDRESSES_EXAMPLE}`,
      );
      return false;
    }
    const addresses = this.addresses(name, entries);
    return addresses.length > 0 ? addresses : false;
  }

  /** Comma-separated IP addresses or CIDRs (or proxy-addr's names, see {@link isProxyAddress}); none when unset. */
  addresses(name: string, entries = this.list(name, [])): string[] {
    const invalid = entries.filter((entry) => !isProxyAddress(entry));
    if (invalid.length > 0 || (entries.length === 0 && this.raw(name) !== undefined)) {
      this.problems.push(`${name} must be comma-separated IP addresses or CIDRs (not understood: "${invalid.join('", "') || this.raw(name)}")`);
      return [];
    }
    return entries;
  }

  /** `*`, or comma-separated origins as browsers send them: `scheme://host[:port]`, nothing after. */
  origins(name: string): string[] | '*' {
    const entries = this.list(name, ['*']);
    if (entries.includes('*')) return '*';
    const invalid = entries.filter((entry) => !isOrigin(entry));
    if (entries.length === 0 || invalid.length > 0) {
      this.problems.push(`${name} must be * or comma-separated origins such as https://shop.example.com (not understood: "${invalid.join('", "')}")`);
      return '*';
    }
    return entries;
  }

  list(name: string, fallback: string[]): string[] {
    const value = this.raw(name);
    if (value === undefined) return fallback;
    return value
      .split(',')
      .map((item) => item.trim().toLowerCase())
      .filter((item) => item.length > 0);
  }

  /**
   * Parses `name:token,name:token`. A problem names the entry by its position and name,
   * never by its token: configuration errors end up in logs.
   */
  adminTokens(name: string): AdminToken[] {
    const value = this.raw(name);
    if (value === undefined) return [];
    const tokens: AdminToken[] = [];
    const names = new Set<string>();
    const digests = new Set<string>();
    for (const [index, entry] of value.split(',').map((item) => item.trim()).entries()) {
      const separator = entry.indexOf(':');
      const tokenName = separator < 0 ? '' : entry.slice(0, separator);
      const token = separator < 0 ? '' : entry.slice(separator + 1);
      const which = `${name} entry ${index + 1}${ADMIN_TOKEN_NAME.test(tokenName) ? ` ("${tokenName}")` : ''}`;
      if (!ADMIN_TOKEN_NAME.test(tokenName)) {
        this.problems.push(`${which} must be name:token with a name of 1 to 64 lowercase letters, digits, "_" and "-", starting with a letter or digit`);
        continue;
      }
      if (!ADMIN_TOKEN.test(token)) {
        this.problems.push(`${which}: the token must be at least 24 characters of letters, digits and . _ ~ + / - (a bearer token)`);
        continue;
      }
      if (token.startsWith(TOKEN_PREFIX)) {
        this.problems.push(`${which}: the token starts like a sandbox key ("${TOKEN_PREFIX}"); admin tokens must not be mistaken for one`);
        continue;
      }
      const sha256 = createHash('sha256').update(token).digest();
      if (names.has(tokenName)) this.problems.push(`${which}: the name "${tokenName}" is used twice`);
      else if (digests.has(sha256.toString('hex'))) this.problems.push(`${which}: the token is also another entry's; give every system its own`);
      names.add(tokenName);
      digests.add(sha256.toString('hex'));
      tokens.push({ name: tokenName, sha256 });
    }
    return tokens;
  }

  /**
   * ACP_FEED_PUSH_URL with its key and feed id (all three, or none), and the market
   * pushed. The key is never repeated in a problem: configuration errors end up in logs.
   */
  feedPush(): AcpFeedPushConfig | undefined {
    const url = this.optionalUrl('ACP_FEED_PUSH_URL', ['http:', 'https:']);
    const key = this.raw('ACP_FEED_PUSH_KEY');
    const feedId = this.raw('ACP_FEED_ID');
    const country = this.string('ACP_FEED_PUSH_COUNTRY', 'IT').toUpperCase();
    const locale = this.oneOf('ACP_FEED_PUSH_LOCALE', 'en', [...LOCALES]);
    if (!/^[A-Z]{2}$/.test(country)) this.problems.push(`ACP_FEED_PUSH_COUNTRY must be a two-letter country code (got "${country}")`);
    if (url === undefined) {
      if (this.raw('ACP_FEED_PUSH_URL') === undefined && (key !== undefined || feedId !== undefined)) {
        this.problems.push('ACP_FEED_PUSH_KEY and ACP_FEED_ID need ACP_FEED_PUSH_URL, the Feed API they are for');
      }
      return undefined;
    }
    if (key === undefined || !/^[\x21-\x7e]+$/.test(key)) this.problems.push('ACP_FEED_PUSH_KEY must be set with ACP_FEED_PUSH_URL: the bearer token of the Feed API, printable characters without spaces');
    if (feedId === undefined || !/^[A-Za-z0-9._~-]{1,200}$/.test(feedId)) {
      this.problems.push('ACP_FEED_ID must be set with ACP_FEED_PUSH_URL: the id of the feed the agent made, 1 to 200 letters, digits and . _ ~ -');
    }
    return { url: url.replace(/\/+$/, ''), key: key ?? '', feedId: feedId ?? '', country, locale };
  }

  /** Parses `EUR:490,GBP:450` into minor-unit amounts per currency. */
  amounts(name: string, fallback: string): Record<string, number> {
    const value = this.raw(name) ?? fallback;
    const amounts: Record<string, number> = {};
    for (const pair of value.split(',')) {
      const match = /^\s*([A-Z]{3})\s*:\s*(\d{1,9})\s*$/.exec(pair);
      if (!match) {
        this.problems.push(`${name} must look like "EUR:490,GBP:450" (minor units per currency), got "${value}"`);
        return {};
      }
      amounts[match[1]!] = Number(match[2]);
    }
    return amounts;
  }
}
