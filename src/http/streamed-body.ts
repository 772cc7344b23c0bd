import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appendVary, BROTLI_QUALITY, chosenCoding, GZIP_LEVEL, ifNoneMatchHolds, type Caching } from './prepared-body.js';

/**
 * An answer too large to hold in memory (a whole catalog), written piece by piece as it
 * is made, with validators known before any of it is: the state it shows names it.
 */
export interface StreamedAnswer {
  /** Strong validator of the uncompressed bytes; each coding gets a tag of its own, as prepared answers do. */
  etag: string;
  /** When the state the answer shows was made, when known (Last-Modified, If-Modified-Since). */
  lastModified: Date | undefined;
  contentType: string;
  caching: Caching;
  /** The text, made only when it is sent (never for 304 or HEAD); each piece is written before the next is asked for. */
  text(): AsyncIterable<string>;
}

/**
 * Answers with `answer` in the best coding the client accepts, or 304 when the client
 * holds it: `If-None-Match` with the tag of that form, else (RFC 9110, 13.2.2)
 * `If-Modified-Since` no earlier than its time. The text is compressed as it streams,
 * so neither form is ever whole in memory; HEAD gets the headers without making it.
 */
export function sendStreamed(request: FastifyRequest, reply: FastifyReply, answer: StreamedAnswer): FastifyReply {
  appendVary(reply, 'Accept-Encoding');
  reply.header('cache-control', answer.caching.cacheControl);
  const coding = chosenCoding(request.headers['accept-encoding']);
  const etag = coding === 'identity' ? answer.etag : `${answer.etag.slice(0, -1)}-${coding}"`;
  reply.header('etag', etag);
  if (answer.lastModified) reply.header('last-modified', answer.lastModified.toUTCString());
  if (notModified(request, etag, answer.lastModified)) return reply.code(304).send();
  reply.type(answer.contentType);
  if (coding !== 'identity') reply.header('content-encoding', coding);
  if (request.method === 'HEAD') return reply.send();
  const text = Readable.from(answer.text(), { objectMode: false });
  if (coding === 'identity') return reply.send(text);
  // An error of either stream destroys the other, and Fastify ends the response.
  return reply.send(pipeline(text, compressor(coding), () => {}));
}

function notModified(request: FastifyRequest, etag: string, lastModified: Date | undefined): boolean {
  const { 'if-none-match': ifNoneMatch, 'if-modified-since': ifModifiedSince } = request.headers;
  if (ifNoneMatch !== undefined) return ifNoneMatchHolds(ifNoneMatch, etag);
  if (ifModifiedSince === undefined || lastModified === undefined) return false;
  const since = Date.parse(ifModifiedSince);
  // HTTP dates have whole seconds.
  return !Number.isNaN(since) && Math.floor(lastModified.getTime() / 1000) * 1000 <= since;
}

function compressor(coding: 'br' | 'gzip'): zlib.Gzip | zlib.BrotliCompress {
  if (coding === 'gzip') return zlib.createGzip({ level: GZIP_LEVEL });
  return zlib.createBrotliCompress({
    params: { [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT, [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY },
  });
}
