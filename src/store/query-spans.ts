import { context, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { LogEvent } from 'kysely';

const tracer = trace.getTracer('vetrina/store');

/** `db.system.name` as OpenTelemetry's database conventions name the two stores. */
export type DatabaseSystem = 'sqlite' | 'postgresql';

/**
 * A span per query, for Kysely's `log` option: Kysely calls it after every query of
 * either dialect, with its SQL and how long it took (or its error), in the caller's
 * async context. The span is parented under the operation being traced (a request, an
 * MCP tool call); queries outside one (the catalog and webhook pollers) make no span,
 * so a quiet instance sends no traces. The SQL has placeholders, never the values.
 */
export function querySpans(system: DatabaseSystem): (event: LogEvent) => void {
  return (event) => {
    const parent = context.active();
    if (!trace.getSpan(parent)) return;
    const endTime = performance.timeOrigin + performance.now();
    const operation = /^\s*(\w+)/.exec(event.query.sql)?.[1]?.toUpperCase() ?? 'QUERY';
    const span = tracer.startSpan(
      operation,
      {
        kind: SpanKind.CLIENT,
        startTime: endTime - event.queryDurationMillis,
        attributes: { 'db.system.name': system, 'db.operation.name': operation, 'db.query.text': event.query.sql },
      },
      parent,
    );
    if (event.level === 'error') {
      span.recordException(event.error instanceof Error ? event.error : String(event.error));
      span.setStatus({ code: SpanStatusCode.ERROR });
    }
    span.end(endTime);
  };
}
