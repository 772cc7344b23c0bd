import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

/** The problems loadConfig reports for this environment (it throws one ConfigError listing all of them). */
function problemsOf(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (error) {
    assert.ok(error instanceof ConfigError, String(error));
    return error.problems;
  }
  assert.fail(`loadConfig accepted ${JSON.stringify(env)}`);
}

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
      logLevel: 'info',
      publicBaseUrl: 'http://127.0.0.1:3000',
      storefrontUrl: 'http://127.0.0.1:3000',
      catalogRateLimit: 120,
      catalogSeed: 'demo',
      catalogPollMs: 1000,
      requestTimeoutMs: 15_000,
      mcpAllowedHosts: ['localhost', '127.0.0.1', '[::1]'],
      sandbox: {
        enabled: true,
        publicKey: 'sbx_test_public_catalog_read',
        keyRateLimit: 20,
        cartRateLimit: 300,
        shippingAmounts: { EUR: 490, GBP: 450, USD: 595, CHF: 690 },
        purgeIntervalMs: 600_000,
      },
    });
  });

  it('trims values, treats an empty variable as unset, and drops the trailing slash of a URL', () => {
    const config = loadConfig({ PORT: ' 8080 ', HOST: '', PUBLIC_BASE_URL: 'https://shop.example/', SANDBOX_ENABLED: 'off' });
    assert.equal(config.port, 8080);
    assert.equal(config.host, '127.0.0.1');
    assert.equal(config.publicBaseUrl, 'https://shop.example');
    assert.deepEqual(config.mcpAllowedHosts, ['localhost', '127.0.0.1', '[::1]', 'shop.example']);
    assert.equal(config.sandbox.enabled, false);
  });

  const integers: [variable: string, min: number, max: number, read: (config: ReturnType<typeof loadConfig>) => number][] = [
    ['PORT', 0, 65535, (config) => config.port],
    ['DATABASE_POOL_SIZE', 1, 200, (config) => config.databasePoolSize],
    ['CATALOG_RATE_LIMIT', 0, 1_000_000, (config) => config.catalogRateLimit],
    ['CATALOG_POLL_MS', 50, 3_600_000, (config) => config.catalogPollMs],
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
    [{ PUBLIC_BASE_URL: 'shop.example' }, /^PUBLIC_BASE_URL must be a http: or https:\/\/ URL/],
    [{ DATABASE_URL: 'mysql://db/vetrina' }, /^DATABASE_URL must be a postgres: or postgresql:\/\/ URL/],
    [{ REDIS_URL: 'http://cache' }, /^REDIS_URL must be a redis: or rediss:\/\/ URL/],
    [{ SANDBOX_SHIPPING_AMOUNTS: 'EUR:4.90' }, /^SANDBOX_SHIPPING_AMOUNTS must look like "EUR:490,GBP:450"/],
    [{ SANDBOX_PUBLIC_KEY: 'sbx_live_public_key' }, /^SANDBOX_PUBLIC_KEY must start with "sbx_test_"/],
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
