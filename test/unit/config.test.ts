import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

/** The problems loadConfig reports for this environment (one ConfigError lists all of them); none when it accepts it. */
const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

describe('loadConfig', () => {
  it('has a default for every setting', () => {
    assert.deepEqual(loadConfig({}), {
      port: 3000,
      host: '127.0.0.1',
      dataDir: './data',
      sqlitePath: 'data/vetrina.sqlite',
      databaseUrl: undefined,
      databasePoolSize: 10,
      redisUrl: undefined,
      redisKeyPrefix: 'vetrina:',
      trustProxy: false,
      metricsToken: undefined,
      tracing: { endpoint: undefined, serviceName: 'vetrina' },
      logLevel: 'info',
      logFormat: 'auto',
      publicBaseUrl: 'http://127.0.0.1:3000',
      storefrontUrl: 'http://127.0.0.1:3000',
      catalogRateLimit: 120,
      trustedCatalogClients: [],
      trustedCatalogRateLimit: 6000,
      catalogCache: { maxAgeSeconds: 30, staleWhileRevalidateSeconds: 60 },
      corsOrigins: '*',
      catalogSeed: 'demo',
      catalogPollMs: 1000,
      heapGrowthPercent: 30,
      heapOptimizeForSize: true,
      changeFeed: { retentionHours: 24, heartbeatSeconds: 15, maxStreamsPerClient: 4, maxStreams: 1000 },
      requestTimeoutMs: 15_000,
      mcpAllowedHosts: ['localhost', '127.0.0.1', '[::1]'],
      mcpBatch: { maxMessages: 20, maxAnswerBytes: 1024 * 1024 },
      sandbox: {
        enabled: true,
        publicKey: 'sbx_test_public_catalog_read',
        keyRateLimit: 20,
        cartRateLimit: 300,
        shippingAmounts: { EUR: 490, GBP: 450, USD: 595, CHF: 690 },
        purgeIntervalMs: 600_000,
      },
      admin: { tokens: [], rateLimit: 12_000, importMaxBytes: 320 * 1024 ** 2, importJobsRetained: 100 },
      webhooks: {
        allowPrivateTargets: false,
        timeoutMs: 10_000,
        maxResponseBytes: 64 * 1024,
        maxAttempts: 12,
        retryBaseMs: 10_000,
        retryMaxDelayMs: 3_600_000,
        retryForMs: 86_400_000,
        pollMs: 1000,
        concurrency: 64,
        concurrencyPerWebhook: 16,
        outboxStuckMs: 300_000,
      },
      ucp: { allowLoopbackHttp: false, profileTimeoutMs: 5000, profileMaxBytes: 256 * 1024, profileCacheSize: 1000 },
      acp: { signingSecret: undefined, signatureToleranceSeconds: 300, feedPush: undefined },
    });
  });

  it('reads the ACP feed push: the Feed API without its trailing slash, its key and feed id, and the market pushed', () => {
    const push = { ACP_FEED_PUSH_URL: 'https://agent.example/api/', ACP_FEED_PUSH_KEY: 'feed_key_123', ACP_FEED_ID: 'feed_8f3K2x' };
    assert.deepEqual(loadConfig(push).acp.feedPush, { url: 'https://agent.example/api', key: 'feed_key_123', feedId: 'feed_8f3K2x', country: 'IT', locale: 'en' });
    assert.deepEqual(loadConfig({ ...push, ACP_FEED_PUSH_COUNTRY: 'gb', ACP_FEED_PUSH_LOCALE: 'it' }).acp.feedPush, {
      url: 'https://agent.example/api',
      key: 'feed_key_123',
      feedId: 'feed_8f3K2x',
      country: 'GB',
      locale: 'it',
    });
    assert.deepEqual(problemsOf({ ACP_FEED_PUSH_URL: 'https://agent.example' }), [
      'ACP_FEED_PUSH_KEY must be set with ACP_FEED_PUSH_URL: the bearer token of the Feed API, printable characters without spaces',
      'ACP_FEED_ID must be set with ACP_FEED_PUSH_URL: the id of the feed the agent made, 1 to 200 letters, digits and . _ ~ -',
    ]);
    assert.deepEqual(problemsOf({ ...push, ACP_FEED_ID: 'a/b' }), [
      'ACP_FEED_ID must be set with ACP_FEED_PUSH_URL: the id of the feed the agent made, 1 to 200 letters, digits and . _ ~ -',
    ]);
    assert.deepEqual(problemsOf({ ACP_FEED_PUSH_KEY: 'feed_key_123' }), ['ACP_FEED_PUSH_KEY and ACP_FEED_ID need ACP_FEED_PUSH_URL, the Feed API they are for']);
    assert.deepEqual(problemsOf({ ...push, ACP_FEED_PUSH_COUNTRY: 'Italy' }), ['ACP_FEED_PUSH_COUNTRY must be a two-letter country code (got "ITALY")']);
    assert.match(problemsOf({ ...push, ACP_FEED_PUSH_LOCALE: 'fr' })[0]!, /^ACP_FEED_PUSH_LOCALE must be one of en, it/);
  });

  it('trims values, treats an empty variable as unset, and drops the trailing slash of a URL', () => {
    const config = loadConfig({ PORT: ' 8080 ', HOST: '', PUBLIC_BASE_URL: 'https://shop.example/', SANDBOX_ENABLED: 'off', HEAP_OPTIMIZE_FOR_SIZE: ' false ' });
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.publicBaseUrl, 'https://shop.example');
    assert.deepEqual(config.mcpAllowedHosts, ['localhost', '127.0.0.1', '[::1]', 'shop.example']);
    assert.equal(config.sandbox.enabled, false);
    assert.equal(config.heapOptimizeForSize, false);
  });

  const integers: [variable: string, min: number, max: number, read: (config: ReturnType<typeof loadConfig>) => number][] = [
    ['PORT', 0, 65535, (config) => config.port],
    ['DATABASE_POOL_SIZE', 1, 200, (config) => config.databasePoolSize],
    ['CATALOG_RATE_LIMIT', 0, 1_000_000, (config) => config.catalogRateLimit],
    ['CATALOG_POLL_MS', 50, 3_600_000, (config) => config.catalogPollMs],
    ['HEAP_GROWTH_PERCENT', 0, 400, (config) => config.heapGrowthPercent],
    ['REQUEST_TIMEOUT_MS', 1000, 300_000, (config) => config.requestTimeoutMs],
    ['SANDBOX_KEY_RATE_LIMIT', 0, 1_000_000, (config) => config.sandbox.keyRateLimit],
    ['SANDBOX_CART_RATE_LIMIT', 0, 1_000_000, (config) => config.sandbox.cartRateLimit],
    ['SANDBOX_PURGE_INTERVAL_MS', 1000, 86_400_000, (config) => config.sandbox.purgeIntervalMs],
  ];
  for (const [variable, min, max, read] of integers) {
    it(`${variable}: accepts ${min} and ${max}, refuses ${min - 1}, ${max + 1} and a non-integer`, () => {
      assert.equal(read(loadConfig({ [variable]: String(min) })), min);
      assert.equal(read(loadConfig({ [variable]: String(max) })), max);
      for (const value of [String(min - 1), String(max + 1), '1.5', '1e3']) {
        assert.deepEqual(problemsOf({ [variable]: value }), [`${variable} must be an integer from ${min} to ${max} (got "${value}")`]);
      }
    });
  }

  const refusals: [Record<string, string>, RegExp][] = [
    [{ SANDBOX_ENABLED: 'maybe' }, /^SANDBOX_ENABLED must be true or false/],
    [{ LOG_LEVEL: 'verbose' }, /^LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent/],
    [{ LOG_FORMAT: 'colour' }, /^LOG_FORMAT must be one of auto, json, pretty \(got "colour"\)/],
    [{ PUBLIC_BASE_URL: 'shop.example' }, /^PUBLIC_BASE_URL must be a http: or https:\/\/ URL/],
    // The URL parser drops the line break; a header or link made from the text would not.
    [{ PUBLIC_BASE_URL: 'https://shop.example\r\nSet-Cookie: a=b' }, /^PUBLIC_BASE_URL must be a URL without spaces, line breaks or other control characters/],
    [{ PUBLIC_BASE_URL: 'https://shop.example/\napi' }, /^PUBLIC_BASE_URL must be a URL without spaces, line breaks/],
    [{ STOREFRONT_URL: 'https://shop\r.example' }, /^STOREFRONT_URL must be a URL without spaces, line breaks/],
    [{ DATABASE_URL: 'mysql://db/vetrina' }, /^DATABASE_URL must be a postgres: or postgresql:\/\/ URL/],
    [{ REDIS_URL: 'http://cache' }, /^REDIS_URL must be a redis: or rediss:\/\/ URL/],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4317' }, /^OTEL_EXPORTER_OTLP_ENDPOINT must be a http: or https:\/\/ URL/],
    [{ SANDBOX_SHIPPING_AMOUNTS: 'EUR:4.90' }, /^SANDBOX_SHIPPING_AMOUNTS must look like "EUR:490,GBP:450"/],
    [{ SANDBOX_PUBLIC_KEY: 'sbx_live_public_key' }, /^SANDBOX_PUBLIC_KEY must start with "sbx_test_"/],
    // Longer than any key authentication accepts: it could never be used.
    [{ SANDBOX_PUBLIC_KEY: `sbx_test_${'a'.repeat(201)}` }, /^SANDBOX_PUBLIC_KEY must start with "sbx_test_" followed by 8 to 200/],
  ];
  for (const [env, problem] of refusals) {
    it(`refuses ${JSON.stringify(env)}`, () => {
      const problems = problemsOf(env);
      assert.equal(problems.length, 1, problems.join('\n'));
      assert.match(problems[0]!, problem);
    });
  }

  it('parses shipping amounts per currency', () => {
    assert.deepEqual(loadConfig({ SANDBOX_SHIPPING_AMOUNTS: 'EUR:0, JPY : 800' }).sandbox.shippingAmounts, { EUR: 0, JPY: 800 });
  });

  it('reports every problem at once, each on its own line of the message', () => {
    const env = { PORT: 'eighty', LOG_LEVEL: 'loud', CATALOG_POLL_MS: '10', SANDBOX_PUBLIC_KEY: 'short' };
    const problems = problemsOf(env);
    assert.deepEqual(
      problems.map((problem) => problem.split(' ')[0]),
      ['PORT', 'LOG_LEVEL', 'CATALOG_POLL_MS', 'SANDBOX_PUBLIC_KEY'],
    );
    assert.throws(() => loadConfig(env), { message: `Invalid configuration:\n  - ${problems.join('\n  - ')}` });
  });
});

describe('TRUST_PROXY at config load', () => {
  it('is off (socket address is the client) when unset', () => {
    assert.equal(loadConfig({}).trustProxy, false);
  });

  it('accepts comma-separated addresses, CIDRs and the proxy-addr names', () => {
    assert.deepEqual(loadConfig({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.7,fd00::/8, ::1' }).trustProxy, ['10.0.0.0/8', '192.168.1.7', 'fd00::/8', '::1']);
    assert.deepEqual(loadConfig({ TRUST_PROXY: 'loopback,uniquelocal' }).trustProxy, ['loopback', 'uniquelocal']);
  });

  for (const value of ['true', 'TRUE', '*', 'everything', 'all', '0.0.0.0/0', '::/0', '10.0.0.1,*']) {
    it(`refuses "${value}", which would let any client pick its own address`, () => {
      const [problem, ...rest] = problemsOf({ TRUST_PROXY: value });
      assert.equal(rest.length, 0);
      assert.match(problem!, /^TRUST_PROXY=.* would trust X-Forwarded-For from every client/);
    });
  }

  it('refuses a hop count, which trusts whoever connects directly', () => {
    assert.match(problemsOf({ TRUST_PROXY: '1' })[0]!, /hop counts are not supported/);
  });

  it('suggests only settings it then accepts, and never a hop count', () => {
    for (const refused of ['true', '*', '1', '2']) {
      const problem = problemsOf({ TRUST_PROXY: refused })[0]!;
      assert.doesNotMatch(problem, /hops \(|number of proxy hops/);
      const suggested = /\(e\.g\. ([^,]+), or (\w+) /.exec(problem);
      assert.ok(suggested, problem);
      for (const example of suggested.slice(1)) assert.deepEqual(problemsOf({ TRUST_PROXY: example! }), [], example);
    }
  });

  for (const value of ['10.0.0.0/33', 'lb.internal', '10.0.0.1/8/1', 'fe80::/129']) {
    it(`refuses "${value}", which is no address or CIDR`, () => {
      assert.match(problemsOf({ TRUST_PROXY: value })[0]!, /^TRUST_PROXY must be comma-separated IP addresses or CIDRs/);
    });
  }
});

describe('REQUEST_TIMEOUT_MS at config load', () => {
  it('defaults to 15 s, so with the 1 s check a trickled request is answered well within 30 s', () => {
    assert.equal(loadConfig({}).requestTimeoutMs, 15_000);
    assert.equal(loadConfig({ REQUEST_TIMEOUT_MS: '5000' }).requestTimeoutMs, 5000);
  });

  it('refuses a time-out below 1 s or that is no integer', () => {
    for (const value of ['999', '0', '1.5', 'soon']) {
      assert.match(problemsOf({ REQUEST_TIMEOUT_MS: value })[0]!, /^REQUEST_TIMEOUT_MS must be an integer from 1000 to 300000/);
    }
  });
});

describe('Redis and metrics settings at config load', () => {
  it('namespaces Redis keys under "vetrina:" unless REDIS_KEY_PREFIX says otherwise', () => {
    assert.equal(loadConfig({}).redisKeyPrefix, 'vetrina:');
    assert.equal(loadConfig({ REDIS_KEY_PREFIX: 'shop-a:' }).redisKeyPrefix, 'shop-a:');
  });

  it('verifies no ACP signature without ACP_SIGNING_SECRET, refuses a secret shorter than 16 characters and a tolerance out of 1 to 3600 s', () => {
    assert.deepEqual(problemsOf({ ACP_SIGNING_SECRET: 'short' }), ['ACP_SIGNING_SECRET must be at least 16 characters long']);
    assert.equal(loadConfig({ ACP_SIGNING_SECRET: 'a-long-enough-secret' }).acp.signingSecret, 'a-long-enough-secret');
    assert.equal(problemsOf({ ACP_SIGNATURE_TOLERANCE_SECONDS: '0' }).length, 1);
    assert.equal(loadConfig({ ACP_SIGNATURE_TOLERANCE_SECONDS: '60' }).acp.signatureToleranceSeconds, 60);
  });

  it('leaves /metrics open without METRICS_TOKEN and refuses a token shorter than 16 characters', () => {
    assert.equal(loadConfig({}).metricsToken, undefined);
    assert.deepEqual(problemsOf({ METRICS_TOKEN: 'short' }), ['METRICS_TOKEN must be at least 16 characters long']);
    assert.equal(loadConfig({ METRICS_TOKEN: 'a-long-enough-secret' }).metricsToken, 'a-long-enough-secret');
  });
});

describe('admin settings at config load', () => {
  const TOKEN_A = 'tok_aaaaaaaaaaaaaaaaaaaaaaaaaaaa';
  const TOKEN_B = 'tok_bbbbbbbbbbbbbbbbbbbbbbbbbbbb';
  const sha256 = (token: string) => createHash('sha256').update(token).digest();

  it('keeps the admin API off when ADMIN_TOKENS is unset or empty', () => {
    assert.deepEqual(loadConfig({}).admin.tokens, []);
    assert.deepEqual(loadConfig({ ADMIN_TOKENS: ' ' }).admin.tokens, []);
  });

  it('parses name:token pairs and keeps only the SHA-256 of each token', () => {
    const { admin } = loadConfig({ ADMIN_TOKENS: ` erp:${TOKEN_A} , pim-2:${TOKEN_B}`, ADMIN_RATE_LIMIT: '0', ADMIN_IMPORT_MAX_BYTES: '2048', ADMIN_IMPORT_JOBS_RETAINED: '7' });
    assert.deepEqual(admin, { tokens: [{ name: 'erp', sha256: sha256(TOKEN_A) }, { name: 'pim-2', sha256: sha256(TOKEN_B) }], rateLimit: 0, importMaxBytes: 2048, importJobsRetained: 7 });
    assert.ok(!JSON.stringify(admin).includes(TOKEN_A));
  });

  it('refuses bad entries naming the variable and the entry, never echoing a token', () => {
    const cases: [string, RegExp][] = [
      [`${TOKEN_A}`, /ADMIN_TOKENS entry 1 must be name:token/],
      [`ERP:${TOKEN_A}`, /ADMIN_TOKENS entry 1 must be name:token with a name of 1 to 64 lowercase/],
      [`erp:short-token`, /ADMIN_TOKENS entry 1 \("erp"\): the token must be at least 24 characters/],
      [`erp:${TOKEN_A} with space`, /ADMIN_TOKENS entry 1 \("erp"\): the token must be/],
      [`erp:${TOKEN_A},erp:${TOKEN_B}`, /ADMIN_TOKENS entry 2 \("erp"\): the name "erp" is used twice/],
      [`erp:${TOKEN_A},pim:${TOKEN_A}`, /ADMIN_TOKENS entry 2 \("pim"\): the token is also another entry's/],
      [`erp:sbx_test_aaaaaaaaaaaaaaaaaaaaaaaa`, /ADMIN_TOKENS entry 1 \("erp"\): the token starts like a sandbox key/],
      [`erp:${TOKEN_A},`, /ADMIN_TOKENS entry 2 must be name:token/],
    ];
    for (const [value, message] of cases) {
      const problems = problemsOf({ ADMIN_TOKENS: value });
      assert.equal(problems.length, 1, `${value}: ${problems.join('; ')}`);
      assert.match(problems[0]!, message);
      assert.ok(!problems[0]!.includes(TOKEN_A) && !problems[0]!.includes('short-token'), problems[0]);
    }
  });

  it('refuses an ADMIN_RATE_LIMIT, ADMIN_IMPORT_MAX_BYTES or ADMIN_IMPORT_JOBS_RETAINED out of range', () => {
    assert.deepEqual(problemsOf({ ADMIN_RATE_LIMIT: '-1' }), ['ADMIN_RATE_LIMIT must be an integer from 0 to 1000000 (got "-1")']);
    assert.deepEqual(problemsOf({ ADMIN_IMPORT_JOBS_RETAINED: '0' }), ['ADMIN_IMPORT_JOBS_RETAINED must be an integer from 1 to 100000 (got "0")']);
    assert.match(problemsOf({ ADMIN_IMPORT_MAX_BYTES: '10' })[0]!, /^ADMIN_IMPORT_MAX_BYTES must be an integer from 1024 to/);
  });
});

describe('browser and cache settings at config load', () => {
  it('answers any origin unless CORS_ORIGINS lists origins, which must be scheme://host[:port]', () => {
    assert.equal(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins, '*');
    assert.deepEqual(loadConfig({ CORS_ORIGINS: 'https://Shop.example.com, http://localhost:5173' }).corsOrigins, [
      'https://shop.example.com',
      'http://localhost:5173',
    ]);
    for (const value of ['shop.example.com', 'https://shop.example.com/', 'https://shop.example.com/path', 'ftp://files.example']) {
      assert.match(problemsOf({ CORS_ORIGINS: value })[0]!, /^CORS_ORIGINS must be \* or comma-separated origins/, value);
    }
  });

  it('reads the catalog cache lifetimes in seconds, 0 to a day', () => {
    assert.deepEqual(loadConfig({ CATALOG_CACHE_MAX_AGE: '0', CATALOG_CACHE_STALE_WHILE_REVALIDATE: '600' }).catalogCache, {
      maxAgeSeconds: 0,
      staleWhileRevalidateSeconds: 600,
    });
    assert.match(problemsOf({ CATALOG_CACHE_MAX_AGE: '-1' })[0]!, /^CATALOG_CACHE_MAX_AGE must be an integer from 0 to 86400/);
  });

  it('reads trusted catalog clients as addresses or CIDRs with a limit of their own', () => {
    const config = loadConfig({ CATALOG_TRUSTED_CLIENTS: '10.1.2.3, 192.168.0.0/16, uniquelocal', CATALOG_TRUSTED_RATE_LIMIT: '20000' });
    assert.deepEqual(config.trustedCatalogClients, ['10.1.2.3', '192.168.0.0/16', 'uniquelocal']);
    assert.equal(config.trustedCatalogRateLimit, 20_000);
    assert.match(problemsOf({ CATALOG_TRUSTED_CLIENTS: 'storefront.internal' })[0]!, /^CATALOG_TRUSTED_CLIENTS must be comma-separated IP addresses or CIDRs/);
  });
});
