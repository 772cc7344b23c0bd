import { tracingChannel } from 'node:diagnostics_channel';
import { context, SpanKind, SpanStatusCode, trace, type Span } from '@opentelemetry/api';

const SPAN = Symbol('span');
const tracer = trace.getTracer('vetrina/redis');

/** What ioredis publishes about each command on its `ioredis:command` tracing channel. */
interface CommandMessage {
  command: string;
  database: number;
  serverAddress: string;
  serverPort?: number;
  error?: unknown;
  [SPAN]?: Span;
}

/**
 * A span per Redis command, from the tracing channel ioredis publishes every command on
 * (start in the caller's async context, asyncEnd once Redis answered): no module is
 * patched, so it works however ioredis was loaded. Like the store's (query-spans.ts),
 * only commands of a traced operation make a span. The command's arguments are left
 * out: the rate-limit keys hold client addresses. Returns the unsubscribe.
 */
export function traceRedisCommands(): () => void {
  const channel = tracingChannel<unknown, CommandMessage>('ioredis:command');
  const subscribers = {
    start(message: CommandMessage) {
      const parent = context.active();
      if (!trace.getSpan(parent)) return;
      const operation = message.command.toUpperCase();
      message[SPAN] = tracer.startSpan(
        operation,
        {
          kind: SpanKind.CLIENT,
          attributes: {
            'db.system.name': 'redis',
            'db.operation.name': operation,
            'db.namespace': String(message.database),
            'server.address': message.serverAddress,
            ...(message.serverPort !== undefined && { 'server.port': message.serverPort }),
          },
        },
        parent,
      );
    },
    error(message: CommandMessage) {
      const span = message[SPAN];
      span?.recordException(message.error instanceof Error ? message.error : String(message.error));
      span?.setStatus({ code: SpanStatusCode.ERROR });
    },
    asyncEnd(message: CommandMessage) {
      message[SPAN]?.end();
    },
    end() {},
    asyncStart() {},
  };
  channel.subscribe(subscribers);
  return () => channel.unsubscribe(subscribers);
}
