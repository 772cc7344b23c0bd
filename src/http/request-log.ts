import type { Writable } from 'node:stream';
import fp from 'fastify-plugin';
import { PinoPretty } from 'pino-pretty';
import type { LogFormat } from '../config.js';

/** The request line's fields (Fastify's own names), which the readable form puts in its message. */
const REQUEST_FIELDS = ['req', 'res', 'responseTime'];

interface RequestLine {
  req: { method: string; url: string };
  res: { statusCode: number };
  responseTime: number;
}

/**
 * Fastify's logger options for the configured level and format: JSON lines, or with
 * `pretty` (`auto` on a terminal) one readable line per entry, e.g.
 * `[14:03:07.412] INFO: GET /healthz 200 (0.7 ms) {"reqId":"..."}`. `destination` is where the
 * readable lines go (standard output unless a test says otherwise).
 */
export function loggerOptions(level: string, format: LogFormat, onTerminal: boolean, destination?: Writable): object {
  if (format === 'json' || (format === 'auto' && !onTerminal)) return { level };
  const stream = PinoPretty({
    colorize: onTerminal,
    // Written at once: the lines before a process.exit (a shutdown) must not be lost.
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    ignore: ['pid', 'hostname', ...REQUEST_FIELDS].join(','),
    singleLine: true,
    messageFormat: (log, messageKey) => {
      const { req, res, responseTime } = log as Partial<RequestLine>;
      if (req === undefined) return String(log[messageKey]);
      return res === undefined ? `${req.method} ${req.url}` : `${req.method} ${req.url} ${res.statusCode} (${responseTime?.toFixed(1)} ms)`;
    },
    ...(destination && { destination }),
  });
  return { level, stream };
}

/**
 * One line per request, when its answer has gone: the request (method, URL, host, client
 * address), the answer's status and the time, under the request's id (Fastify's own two lines, incoming and completed, are switched off in
 * app.ts). At `debug`, a line when a request arrives too.
 */
export const requestLog = fp(
  async (app) => {
    // Callback style: an async hook costs every request a promise and a microtask.
    app.addHook('onRequest', (request, _reply, done) => {
      request.log.debug({ req: request }, 'incoming request');
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      request.log.info({ req: request, res: reply, responseTime: reply.elapsedTime }, 'request completed');
      done();
    });
  },
  { name: 'request-log' },
);
