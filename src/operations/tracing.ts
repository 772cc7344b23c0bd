import { context, propagation, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK, type tracing } from '@opentelemetry/sdk-node';
import type { TracingConfig } from '../config.js';
import { traceRedisCommands } from '../redis/command-spans.js';

export interface Tracing {
  /** Sends the spans still buffered and unregisters the SDK. */
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry's Node SDK for traces, sent with the OTLP HTTP exporter (which
 * reads OTEL_EXPORTER_OTLP_ENDPOINT, OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, *_HEADERS and
 * *_TIMEOUT itself; the SDK reads OTEL_TRACES_SAMPLER, OTEL_RESOURCE_ATTRIBUTES, the span
 * limits and OTEL_SDK_DISABLED). Only traces: metrics are /metrics' (Prometheus) and logs
 * pino's, so the SDK's default OTLP metric and log exporters are left out.
 *
 * No instrumentation patches a module (none needs ESM loader hooks, so `node dist/server.js`
 * and `npm start` need no `--import`): the request spans are @fastify/otel's plugin
 * (http/request-spans.ts, registered by the app), the store's come from Kysely's query
 * log (store/query-spans.ts), Redis's from ioredis's tracing channel (subscribed here,
 * for the process), MCP tool calls' from the MCP layer (mcp/tool.ts). server.ts imports
 * this module only when tracing is on, so with it off the SDK is never loaded.
 * `spanProcessors` replaces the exporter (tests: an in-memory one).
 */
export function startTracing(config: TracingConfig, spanProcessors?: tracing.SpanProcessor[]): Tracing {
  const sdk = new NodeSDK({
    serviceName: config.serviceName,
    ...(spanProcessors ? { spanProcessors } : { traceExporter: new OTLPTraceExporter() }),
    metricReaders: [],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  const stopRedisSpans = traceRedisCommands();
  return {
    shutdown: async () => {
      stopRedisSpans();
      await sdk.shutdown();
      // The SDK's shutdown leaves its provider, context manager and propagator registered.
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}
