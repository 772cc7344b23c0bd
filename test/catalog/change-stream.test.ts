import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { adminClient, withAdmin } from '../support/admin.js';
import { product, variant } from '../support/catalog-builder.js';
import { EventStreamClient } from '../support/event-stream.js';
import { needsProductionServices } from '../support/production-services.js';
import { sample } from '../support/prometheus.js';
import { listeningPort } from '../support/raw-http.js';
import { startTestApp, useTestApp, type TestApp } from '../support/test-app.js';

const CATALOG = [
  product('olive-oil'),
  product('honey', { variants: [variant('HONEY', { prices: [{ currency: 'EUR', amount: 800 }, { currency: 'USD', amount: 900 }] })] }),
  product('salt'),
];

/** Only a hang guard: a stream that never sends what a test waits for fails the test instead of holding the suite. */
const HANG_GUARD = { timeout: 120_000 };

const retitle = (testApp: TestApp, handle: string, title: string) =>
  adminClient(testApp)('PATCH', `/admin/v1/products/${handle}`, { translations: { en: { title } } });

describe('GET /public/v1/changes/stream: the change feed as Server-Sent Events', HANG_GUARD, () => {
  const testApp = useTestApp(withAdmin({ catalog: CATALOG, config: { corsOrigins: '*' } }));
  const open = async (path: string, headers: Record<string, string> = {}) => EventStreamClient.open(await listeningPort(testApp.app), path, headers);
  const now = async () => (await testApp.client.request({ method: 'GET', url: '/public/v1/changes' })).data.next_cursor as string;

  it('sends each change as an event whose id is its cursor, and resumes after Last-Event-ID (over since) with nothing lost or repeated', async () => {
    const start = await now();
    const stream = await open(`/public/v1/changes/stream?since=${start}`, { origin: 'https://shop.example' });
    try {
      assert.equal(stream.status, 200);
      assert.match(String(stream.headers['content-type']), /^text\/event-stream/);
      assert.match(String(stream.headers['x-request-id']), /^[0-9a-f-]{36}$/);
      assert.equal(stream.headers['access-control-allow-origin'], '*');
      await retitle(testApp, 'honey', 'Honey one');
      await retitle(testApp, 'salt', 'Salt one');
      await stream.until((s) => s.events.length === 2, 'two events');
      assert.deepEqual(stream.events.map((event) => [event.data.handle, event.data.kinds, event.data.product.title]), [
        ['honey', ['content'], 'Honey one'],
        ['salt', ['content'], 'Salt one'],
      ]);
      assert.deepEqual(stream.events.map((event) => event.id), stream.events.map((event) => event.data.cursor));
    } finally {
      stream.close();
    }
    const missedWhileAway = await retitle(testApp, 'olive-oil', 'Oil one');
    assert.equal(missedWhileAway.statusCode, 200);
    // As EventSource reconnects: the URL it opened first, and the id of the last event it had.
    const resumed = await open(`/public/v1/changes/stream?since=${start}`, { 'last-event-id': stream.events[0]!.id! });
    try {
      await retitle(testApp, 'honey', 'Honey two');
      await resumed.until((s) => s.events.length === 3, 'three events');
      assert.deepEqual(resumed.events.map((event) => [event.data.handle, event.data.product.title]), [
        ['salt', 'Salt one'],
        ['olive-oil', 'Oil one'],
        ['honey', 'Honey two'],
      ]);
      // Every event is a feed entry: the feed from the same place answers the same entries.
      const feed = await testApp.client.request({ method: 'GET', url: `/public/v1/changes?since=${stream.events[0]!.id}` });
      assert.deepEqual(feed.data.changes, resumed.events.map((event) => event.data));
    } finally {
      resumed.close();
    }
  });

  it('refuses an expired cursor (410), an invalid one and an invalid market (400) as JSON before streaming', async () => {
    const head = await testApp.app.inject({ method: 'HEAD', url: '/public/v1/changes/stream' });
    assert.deepEqual([head.statusCode, head.headers['content-type'], head.body], [200, 'text/event-stream; charset=utf-8', '']);
    assert.equal((await testApp.app.inject({ method: 'HEAD', url: '/public/v1/changes/stream?country=ZZ' })).statusCode, 400);
    const invalid = await open('/public/v1/changes/stream', { 'last-event-id': 'not-a-cursor' });
    assert.equal(invalid.status, 400);
    assert.equal(JSON.parse(invalid.body!).error.code, 'INVALID_QUERY');
    const market = await open('/public/v1/changes/stream?country=ZZ');
    assert.equal(JSON.parse(market.body!).error.code, 'REGION_NOT_FOUND');
    const start = await now();
    await retitle(testApp, 'salt', 'Salt two');
    await testApp.store.db.deleteFrom('catalog_changes').where('seq', '<=', Number(start) + 1).execute();
    const expired = await open(`/public/v1/changes/stream?since=${start}`);
    assert.equal(expired.status, 410);
    assert.equal(JSON.parse(expired.body!).error.code, 'CHANGES_EXPIRED');
  });
});

describe('change streams: heartbeats, caps and shutdown', HANG_GUARD, () => {
  const testApp = useTestApp({
    catalog: CATALOG,
    config: { trustProxy: ['127.0.0.1'], changeFeed: { retentionHours: 24, heartbeatSeconds: 1, maxStreamsPerClient: 2, maxStreams: 3 } },
  });
  const open = async (headers: Record<string, string> = {}) => EventStreamClient.open(await listeningPort(testApp.app), '/public/v1/changes/stream', headers);

  it('sends a comment line every CHANGE_STREAM_HEARTBEAT_SECONDS while nothing changes', async () => {
    const stream = await open();
    try {
      await stream.until((s) => s.comments.filter((comment) => comment === 'heartbeat').length >= 2, 'two heartbeats');
      assert.deepEqual(stream.events, []);
    } finally {
      stream.close();
    }
  });

  it('refuses a client past CHANGE_STREAM_MAX_PER_CLIENT (429) and anyone past CHANGE_STREAM_MAX (503), and admits again once one closes', async () => {
    // Behind a trusted proxy, each client by its X-Forwarded-For address.
    const from = (client: string) => open({ 'x-forwarded-for': client });
    const held = [await from('203.0.113.1'), await from('203.0.113.1'), await from('203.0.113.2')];
    try {
      assert.deepEqual(held.map((stream) => stream.status), [200, 200, 200]);
      const metrics = (await testApp.app.inject({ url: '/metrics' })).body;
      assert.equal(sample(metrics, 'vetrina_change_streams_open'), 3);
      const perClient = await from('203.0.113.1');
      assert.equal(perClient.status, 429, perClient.body);
      assert.equal(JSON.parse(perClient.body!).error.code, 'TOO_MANY_STREAMS');
      const total = await from('203.0.113.3');
      assert.equal(total.status, 503, total.body);
      assert.equal(JSON.parse(total.body!).error.code, 'STREAMS_UNAVAILABLE');
      held[0]!.close();
      // The server notices the closed connection soon after; until then the cap still holds.
      let admitted = await from('203.0.113.3');
      while (admitted.status !== 200) admitted = await from('203.0.113.3');
      held.push(admitted);
    } finally {
      for (const stream of held) stream.close();
    }
  });

  it('ends every open stream on shutdown, so the app closes', async () => {
    const own = await startTestApp({ catalog: CATALOG });
    const stream = await EventStreamClient.open(await listeningPort(own.app), '/public/v1/changes/stream');
    assert.equal(stream.status, 200);
    await own.close();
    await stream.whenClosed();
  });
});

describe('change streams and the catalog rate limit', HANG_GUARD, () => {
  const testApp = useTestApp({ catalog: CATALOG, config: { catalogRateLimit: 2 } });

  it('opening a stream counts once against the catalog window shared with the feed, and past it is RATE_LIMITED', async () => {
    const port = await listeningPort(testApp.app);
    const stream = await EventStreamClient.open(port, '/public/v1/changes/stream');
    try {
      assert.equal(stream.status, 200);
      assert.equal(stream.headers['ratelimit-remaining'], '1');
      assert.equal((await testApp.app.inject({ url: '/public/v1/changes' })).statusCode, 200);
      const refused = await EventStreamClient.open(port, '/public/v1/changes/stream');
      assert.equal(refused.status, 429);
      assert.equal(JSON.parse(refused.body!).error.code, 'RATE_LIMITED');
    } finally {
      stream.close();
    }
  });
});

/** Polling slowed to a minute (the test default): only the Redis announcement carries a change to the other instance. */
describe('a change made through one instance reaches a stream held on another', { ...HANG_GUARD, skip: needsProductionServices }, () => {
  let a: TestApp;
  let b: TestApp;
  before(async () => {
    a = await startTestApp(withAdmin({ catalog: CATALOG }));
    b = await startTestApp({ config: { databaseUrl: a.config.databaseUrl, redisKeyPrefix: a.config.redisKeyPrefix } });
  });
  after(async () => {
    await b?.close();
    await a?.close();
  });

  it('streams on B send the change A committed, rendered in their own markets', async (t) => {
    const port = await listeningPort(b.app);
    const italy = await EventStreamClient.open(port, '/public/v1/changes/stream');
    const us = await EventStreamClient.open(port, '/public/v1/changes/stream?country=US');
    try {
      const response = await retitle(a, 'honey', 'Honey from A');
      const answered = performance.now();
      assert.equal(response.statusCode, 200, response.body);
      for (const stream of [italy, us]) await stream.until((s) => s.events.length === 1, 'the change made on A');
      t.diagnostic(`both streams on B had the change ${Math.round(performance.now() - answered)} ms after A answered`);
      assert.deepEqual([italy, us].map((stream) => [stream.events[0]!.data.product.title, stream.events[0]!.data.product.variants[0].price]), [
        ['Honey from A', { amount: 8, currency: 'EUR' }],
        ['Honey from A', { amount: 9, currency: 'USD' }],
      ]);
    } finally {
      italy.close();
      us.close();
    }
  });
});
