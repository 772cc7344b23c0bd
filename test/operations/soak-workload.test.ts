import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FLOW_KINDS, KINDS, LoadStats, runWorkload, sampleCatalog } from '../../bench/soak-workload.js';
import { readCommandLine } from '../../src/lib/command-line.js';
import { SOAK_ARGUMENTS, SOAK_USAGE, soakOptions } from '../../bench/soak-options.js';
import { useTestApp } from '../support/test-app.js';

const parseSoakOptions = (args: string[]) => readCommandLine(SOAK_USAGE, SOAK_ARGUMENTS, args, soakOptions);

/** Every kind gets this many requests at least, and every flow reaches checkout at least once. */
const REQUESTS_PER_KIND = 10;

describe('the soak workload (npm run soak)', () => {
  const shared = useTestApp();

  it('drives every kind of traffic against the real service with no failure, sandbox flows reaching checkout', async () => {
    const baseUrl = await shared.app.listen({ port: 0, host: '127.0.0.1' });
    const sample = await sampleCatalog(baseUrl);
    const stats = new LoadStats();
    const unfinished = () =>
      KINDS.filter((kind) => {
        const tally = stats.total.byKind[kind];
        return tally.requests < REQUESTS_PER_KIND || (FLOW_KINDS.includes(kind) && tally.flows === 0);
      });
    await runWorkload({ baseUrl, connections: 4, sample, stats, running: () => stats.total.all.failures === 0 && unfinished().length > 0 });

    assert.deepEqual(stats.failureSamples, []);
    assert.equal(stats.total.all.failures, 0);
    assert.deepEqual(unfinished(), []);
  });
});

describe('npm run soak: arguments', () => {
  it('defaults to 10 minutes on 16 connections, the demo catalog and SQLite; minutes may be fractions', () => {
    assert.deepEqual(parseSoakOptions([]), { run: { minutes: 10, connections: 16, idleSeconds: 0, products: undefined, databaseUrl: undefined, redisUrl: undefined } });
    const options = parseSoakOptions(['--minutes', '0.2', '--connections', '4', '--idle-seconds', '60', '--products', '5000', '--database-url', 'postgres://db/x', '--redis-url', 'redis://r:6379']);
    assert.deepEqual(options, { run: { minutes: 0.2, connections: 4, idleSeconds: 60, products: 5000, databaseUrl: 'postgres://db/x', redisUrl: 'redis://r:6379' } });
  });

  for (const args of [['--minutes', '0'], ['--minutes', 'ten'], ['--minutes', '1441'], ['--connections', '0'], ['--idle-seconds', '-1'], ['--idle-seconds', '3601'], ['--products', '1.5'], ['--database-url', 'mysql://x'], ['--redis-url', 'x'], ['--seconds', '5']]) {
    it(`refuses ${args.join(' ')}, naming the flag`, () => {
      const answer = parseSoakOptions(args);
      assert.ok('exit' in answer && answer.exit === 2 && answer.text.includes(args[0]!) && answer.text.endsWith(SOAK_USAGE), JSON.stringify(answer));
    });
  }
});
