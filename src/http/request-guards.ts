import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { MalformedRequest } from './problem.js';

/**
 * Headers that must appear at most once. Node keeps only the first `Host` and joins or
 * drops repeated `Authorization` headers, so a proxy in front and this service could read
 * different values; a request that carries two is refused instead of guessed at.
 */
const SINGLE_HEADERS = new Map([
  ['host', 'Host'],
  ['authorization', 'Authorization'],
]);

/** The only content coding accepted on a request body: none. */
const IDENTITY = 'identity';

/**
 * Refuses, before routing does anything else, requests whose meaning is ambiguous: a
 * repeated single header (400) or a body in a content coding this service does not
 * decode (415; reading gzip as JSON would only fail later with a misleading message).
 */
export const requestGuards = fp(
  async (app) => {
    // Callback style, as every request passes here: an async hook costs a promise and a microtask.
    app.addHook('onRequest', (request, _reply, done) => {
      const repeated = repeatedSingleHeader(request.raw.rawHeaders);
      if (repeated !== undefined) {
        done(new MalformedRequest(400, `The ${repeated} header appears more than once.`, { hint: `Send exactly one ${repeated} header.` }));
        return;
      }
      const coding = unsupportedContentEncoding(request);
      if (coding !== undefined) {
        done(new MalformedRequest(415, `Content-Encoding "${coding}" is not supported.`, { hint: 'Send the request body uncompressed, without a Content-Encoding header.' }));
        return;
      }
      done();
    });
  },
  { name: 'request-guards', dependencies: ['error-surfaces'] },
);

function repeatedSingleHeader(rawHeaders: string[]): string | undefined {
  const seen = new Set<string>();
  for (let i = 0; i < rawHeaders.length; i += 2) {
    const name = rawHeaders[i]!.toLowerCase();
    if (!SINGLE_HEADERS.has(name)) continue;
    if (seen.has(name)) return SINGLE_HEADERS.get(name);
    seen.add(name);
  }
  return undefined;
}

function unsupportedContentEncoding(request: FastifyRequest): string | undefined {
  const header = request.headers['content-encoding'];
  const hasBody = request.headers['transfer-encoding'] !== undefined || Number(request.headers['content-length'] ?? 0) > 0;
  if (header === undefined || !hasBody) return undefined;
  const codings = header
    .split(',')
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '');
  return codings.find((coding) => coding !== IDENTITY);
}
