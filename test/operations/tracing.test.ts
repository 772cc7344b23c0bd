import assert from 'node:assert/strict';
import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SpanKind } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor, type ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { startTracing, type Tracing } from '../../src/operations/tracing.js';
import { isolatedServerEnv, type IsolatedServerEnv } from '../support/isolated-server-env.js';
import { McpTestClient } from '../support/mcp-client.js';
import { needsRedis } from '../support/production-services.js';
import { startServerProcess } from '../support/server-process.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * OpenTelemetry through real requests, on the profile the suite runs (SQLite, or
 * PostgreSQL and Redis): the SDK as server.ts starts it, its spans kept in memory instead
 * of exported. One SDK serves the process, as in production; an app whose configuration
 * leaves OTEL_EXPORTER_OTLP_ENDPOINT unset makes no span even then.
 */
const TRACING_ON = { endpoint: 'http://127.0.0.1:4318', serviceName: 'vetrina-tests' };
const HANDLE = 'caffe-espresso-blend';

describe('OpenTelemetry tracing', () => {
  const exporter = new InMemorySpanExporter();
  let tracing: Tracing;
  let traced: TestApp;
  let untraced: TestApp;
  let tracedUrl: string;
  let untracedUrl: string;
  before(async () => {
    tracing = startTracing(TRACING_ON, [new SimpleSpanProcessor(exporter)]);
    // A catalog limit, so that with REDIS_URL every catalog request counts in Redis.
    const config = { catalogRateLimit: 1000 };
    traced = await startTestApp({ config: { ...config, tracing: TRACING_ON } });
    untraced = await startTestApp({ config: { ...config, tracing: { ...TRACING_ON, endpoint: undefined } } });
    tracedUrl = await traced.app.listen({ port: 0, host: '127.0.0.1' });
    untracedUrl = await untraced.app.listen({ port: 0, host: '127.0.0.1' });
  });
  after(async () => {
    await traced?.close();
    await untraced?.close();
    await tracing?.shutdown();
  });

  /** The spans ended while `act` ran. */
  const spansOf = async (act: () => Promise<void>): Promise<ReadableSpan[]> => {
    exporter.reset();
    await act();
    return exporter.getFinishedSpans();
  };
  const requestSpan = (spans: ReadableSpan[], route: string) => {
    const found = spans.filter((span) => span.name === 'request' && span.attributes['http.route'] === route);
    assert.equal(found.length, 1, `one request span for ${route}: ${spans.map((span) => span.name).join(', ')}`);
    return found[0]!;
  };
  const childrenOf = (spans: ReadableSpan[], parent: ReadableSpan) =>
    spans.filter(
      (span) => span.parentSpanContext?.spanId === parent.spanContext().spanId && span.spanContext().traceId === parent.spanContext().traceId,
    );

  it('a request is one server span with its route template, method, path and status, continuing the caller’s traceparent', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const spans = await spansOf(async () => {
      const response = await fetch(`${tracedUrl}/public/v1/products/${HANDLE}`, { headers: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` } });
      assert.equal(response.status, 200, await response.text());
    });
    const span = requestSpan(spans, '/public/v1/products/:handle');
    assert.equal(span.kind, SpanKind.SERVER);
    assert.equal(span.attributes['http.request.method'], 'GET');
    assert.equal(span.attributes['url.path'], `/public/v1/products/${HANDLE}`);
    assert.equal(span.attributes['http.response.status_code'], 200);
    assert.equal(span.spanContext().traceId, traceId);
    assert.equal(span.parentSpanContext?.spanId, '00f067aa0ba902b7');
    assert.equal(span.resource.attributes['service.name'], 'vetrina-tests');
  });

  it('the probes and /metrics, asked every few seconds, make no span', async () => {
    const spans = await spansOf(async () => {
      for (const path of ['/healthz', '/readyz', '/metrics']) assert.equal((await fetch(`${tracedUrl}${path}`)).status, 200, path);
    });
    assert.deepEqual(
      spans.map((span) => span.name),
      [],
    );
  });

  it('the store’s queries are client spans under the request that ran them, on the profile’s database', async () => {
    const spans = await spansOf(async () => {
      const response = await fetch(`${tracedUrl}/sandbox/v1/keys`, { method: 'POST' });
      assert.equal(response.status, 201, await response.text());
    });
    const queries = childrenOf(spans, requestSpan(spans, '/sandbox/v1/keys')).filter((span) => span.attributes['db.system.name'] !== 'redis');
    assert.ok(queries.some((span) => span.name === 'INSERT'), `an INSERT among ${queries.map((span) => span.name).join(', ')}`);
    for (const query of queries) {
      assert.equal(query.kind, SpanKind.CLIENT);
      assert.equal(query.attributes['db.system.name'], traced.store.dialect === 'postgres' ? 'postgresql' : 'sqlite');
      assert.equal(query.attributes['db.operation.name'], query.name);
      assert.match(String(query.attributes['db.query.text']), new RegExp(`^${query.name}`, 'i'));
    }
  });

  it('Redis commands are client spans under the request that sent them (production profile)', { skip: needsRedis }, async () => {
    const spans = await spansOf(async () => {
      const response = await fetch(`${tracedUrl}/public/v1/products?limit=1`);
      assert.equal(response.status, 200, await response.text());
    });
    const commands = childrenOf(spans, requestSpan(spans, '/public/v1/products')).filter((span) => span.attributes['db.system.name'] === 'redis');
    assert.ok(commands.length > 0, 'the rate-limit counter is a Redis command');
    for (const command of commands) {
      assert.equal(command.kind, SpanKind.CLIENT);
      assert.match(command.name, /^EVAL/, 'the counter is one script call');
      assert.equal(command.attributes['db.operation.name'], command.name);
    }
  });

  it('an MCP tool call (the official client) is a span named after the tool, under the request it arrived on', async () => {
    const mcp = await McpTestClient.connect(`${tracedUrl}/mcp`);
    try {
      const spans = await spansOf(async () => {
        const found = await mcp.call('get_product', { handle: HANDLE });
        assert.equal(found.isError, false);
        const missing = await mcp.call('get_product', { handle: 'no-such-product' });
        assert.equal(missing.isError, true);
      });
      const calls = spans.filter((span) => span.name === 'tools/call get_product');
      assert.equal(calls.length, 2);
      const requests = spans.filter((span) => span.name === 'request' && span.attributes['http.route'] === '/mcp');
      for (const [index, call] of calls.entries()) {
        assert.deepEqual(call.attributes, { 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': 'get_product', ...(index === 1 && { 'error.type': 'tool_error' }) });
        assert.ok(
          requests.some((request) => childrenOf([call], request).length === 1),
          'its parent is the POST /mcp request span',
        );
      }
      assert.deepEqual(
        calls.map((call) => call.status.code),
        [0, 2],
        'unset, then error for the tool error',
      );
    } finally {
      await mcp.close();
    }
  });

  it('with OTEL_EXPORTER_OTLP_ENDPOINT unset an app makes no span: no request, query, Redis command or tool call', async () => {
    const mcp = await McpTestClient.connect(`${untracedUrl}/mcp`);
    try {
      const spans = await spansOf(async () => {
        assert.equal((await fetch(`${untracedUrl}/public/v1/products/${HANDLE}`)).status, 200);
        assert.equal((await fetch(`${untracedUrl}/sandbox/v1/keys`, { method: 'POST' })).status, 201);
        assert.equal((await mcp.call('get_product', { handle: HANDLE })).isError, false);
      });
      assert.deepEqual(
        spans.map((span) => span.name),
        [],
      );
    } finally {
      await mcp.close();
    }
  });
});

describe('a server process (src/server.ts) and its OTLP endpoint', () => {
  let isolated: IsolatedServerEnv;
  let collector: http.Server;
  let collectorUrl: string;
  /** What the collector received: each POST's path, content type and body. */
  const received: { path: string; type: string; body: string }[] = [];
  before(async () => {
    isolated = await isolatedServerEnv();
    collector = http.createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ path: request.url ?? '', type: String(request.headers['content-type']), body: Buffer.concat(chunks).toString() });
        response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      });
    });
    collector.listen(0, '127.0.0.1');
    await once(collector, 'listening');
    collectorUrl = `http://127.0.0.1:${(collector.address() as AddressInfo).port}`;
  });
  after(async () => {
    collector?.close();
    await isolated?.cleanup();
  });

  /** Runs a server with `env`, asks it for a product, stops it (exit 0), and returns what the collector received meanwhile. */
  const serve = async (env: Record<string, string>) => {
    received.length = 0;
    const server = await startServerProcess({ ...isolated.env, ...env });
    try {
      assert.equal((await fetch(`${server.url}/public/v1/products/${HANDLE}`)).status, 200);
    } finally {
      assert.equal(await server.stop(), 0, server.output());
    }
    return [...received];
  };

  it('with OTEL_EXPORTER_OTLP_ENDPOINT set, its spans reach <endpoint>/v1/traces as OTLP JSON by the time it has stopped', async () => {
    const posts = await serve({ OTEL_EXPORTER_OTLP_ENDPOINT: collectorUrl, OTEL_SERVICE_NAME: 'vetrina-process' });
    assert.ok(posts.length > 0, 'the spans were sent');
    const spans = posts.flatMap((post) => {
      assert.equal(post.path, '/v1/traces', 'traces only: no metrics or logs');
      assert.match(post.type, /^application\/json/);
      const { resourceSpans } = JSON.parse(post.body) as { resourceSpans: OtlpResourceSpans[] };
      return resourceSpans.flatMap((resource) => {
        assert.ok(resource.resource.attributes.some((attribute) => attribute.key === 'service.name' && attribute.value.stringValue === 'vetrina-process'));
        return resource.scopeSpans.flatMap((scope) => scope.spans);
      });
    });
    const routes = spans.filter((span) => span.name === 'request').map((span) => span.attributes.find((attribute) => attribute.key === 'http.route')?.value.stringValue);
    assert.deepEqual(routes, ['/public/v1/products/:handle']);
  });

  it('with it unset, the SDK is not started: nothing is sent, even to the traces endpoint the SDK itself would read', async () => {
    const posts = await serve({ OTEL_EXPORTER_OTLP_ENDPOINT: '', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: `${collectorUrl}/v1/traces` });
    assert.deepEqual(posts, []);
  });
});

/** The part of OTLP/HTTP's JSON encoding the test reads. */
interface OtlpResourceSpans {
  resource: { attributes: OtlpAttribute[] };
  scopeSpans: { spans: { name: string; attributes: OtlpAttribute[] }[] }[];
}
interface OtlpAttribute {
  key: string;
  value: { stringValue?: string };
}
