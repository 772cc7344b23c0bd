import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { loggerOptions } from '../../src/http/request-log.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** A stream that keeps every line written to it. */
function lineCollector(): { stream: Writable; lines: string[] } {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(...chunk.toString().split('\n').filter(Boolean));
      done();
    },
  });
  return { stream, lines };
}

describe('request logging', () => {
  describe('as JSON (the default off a terminal)', () => {
    const { stream, lines } = lineCollector();
    let testApp: TestApp;
    before(async () => {
      testApp = await startTestApp({ logger: { level: 'info', stream } });
    });
    after(() => testApp.close());

    it('writes one line per request, with method, URL, status and time, under its request id', async () => {
      const urls = ['/healthz', '/public/v1/products/no-such-product?country=IT'];
      const answers = [await testApp.client.get(urls[0]!), await testApp.client.get(urls[1]!)];
      for (const [index, answer] of answers.entries()) {
        const logged = lines.map((line) => JSON.parse(line) as Record<string, any>).filter((entry) => entry.reqId === answer.headers['x-request-id']);
        assert.equal(logged.length, 1, JSON.stringify(logged));
        const [entry] = logged;
        assert.equal(entry!.msg, 'request completed');
        assert.equal(entry!.req.method, 'GET');
        assert.equal(entry!.req.url, urls[index]);
        assert.equal(entry!.res.statusCode, answer.statusCode);
        assert.equal(typeof entry!.responseTime, 'number');
      }
      assert.deepEqual(
        answers.map((answer) => answer.statusCode),
        [200, 404],
      );
    });
  });

  describe('as readable lines (LOG_FORMAT=pretty, or auto on a terminal)', () => {
    const { stream, lines } = lineCollector();
    let testApp: TestApp;
    before(async () => {
      testApp = await startTestApp({ logger: loggerOptions('info', 'pretty', false, stream) });
    });
    after(() => testApp.close());

    it('writes one line per request: time, level, method, URL, status and time taken, then the request id', async () => {
      const answer = await testApp.client.get('/healthz');
      const logged = lines.filter((line) => line.includes(answer.headers['x-request-id'] as string));
      assert.equal(logged.length, 1, lines.join('\n'));
      assert.match(logged[0]!, new RegExp(`^\\[\\d\\d:\\d\\d:\\d\\d\\.\\d{3}\\] INFO: GET /healthz 200 \\(\\d+\\.\\d ms\\) \\{"reqId":"${answer.headers['x-request-id']}"\\}$`));
      // Not colored off a terminal: escape codes would litter a file.
      assert.ok(!lines.join('\n').includes('\u001b['), 'escape codes');
    });
  });

  it('LOG_FORMAT auto is JSON off a terminal and readable on one; json and pretty force either', () => {
    assert.deepEqual(loggerOptions('info', 'auto', false), { level: 'info' });
    assert.deepEqual(loggerOptions('warn', 'json', true), { level: 'warn' });
    assert.ok('stream' in loggerOptions('info', 'auto', true));
    assert.ok('stream' in loggerOptions('info', 'pretty', false));
  });
});
