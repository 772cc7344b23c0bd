import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.js';

const problemsOf = (env: Record<string, string>): string[] => {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
};

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

  it('leaves /metrics open without METRICS_TOKEN and refuses a token shorter than 16 characters', () => {
    assert.equal(loadConfig({}).metricsToken, undefined);
    assert.deepEqual(problemsOf({ METRICS_TOKEN: 'short' }), ['METRICS_TOKEN must be at least 16 characters long']);
    assert.equal(loadConfig({ METRICS_TOKEN: 'a-long-enough-secret' }).metricsToken, 'a-long-enough-secret');
  });
});
