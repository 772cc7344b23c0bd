import { negotiate } from '@fastify/accept-negotiator';
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { FastifyReply, FastifyRequest } from 'fastify';

const deflateRaw = promisify(zlib.deflateRaw);
const brotliCompress = promisify(zlib.brotliCompress);

/** Bodies smaller than this are sent as they are: compressing them saves less than it costs. */
export const COMPRESSION_THRESHOLD_BYTES = 1024;
/** zlib's default level, and Brotli's quality for answers made while a client waits (what CDNs use for dynamic content). */
export const GZIP_LEVEL = 6;
export const BROTLI_QUALITY = 5;

export type Coding = 'br' | 'gzip';

/** A tail is appended as one stored deflate block, whose length field has 16 bits (one Brotli meta-block would take one byte more). */
const MAX_TAIL_BYTES = 65_535;
const CODINGS: Coding[] = ['br', 'gzip'];

/**
 * An answer's bytes prepared once and sent many times: its strong ETag, and its gzip and
 * Brotli forms, are computed once (the compressed forms when first asked for, on zlib's
 * thread pool) and kept with it.
 *
 * Every catalog answer ends with its own request id, so no two bodies are equal. The
 * shared part (`head`) is therefore compressed up to a flush point and each answer's
 * short tail is appended uncompressed, within the same stream: a final stored block and
 * the gzip trailer (RFC 1952; the CRC-32 continued over the tail), or an uncompressed
 * meta-block and the last, empty one (RFC 7932, section 9.2). Decoders see one ordinary
 * stream; concatenated gzip members, the simpler splice, are not decoded by browsers.
 */
export class PreparedBody {
  readonly etag: string;
  readonly #head: Buffer;
  readonly #compressed = new Map<Coding, Promise<CompressedHead>>();

  constructor(head: string | Buffer) {
    this.#head = Buffer.from(head);
    this.etag = `"${createHash('sha256').update(this.#head).digest('base64url').slice(0, 27)}"`;
  }

  /** The bytes of the shared text (its gzip and Brotli forms, once made, add about two fifths). */
  get size(): number {
    return this.#head.length;
  }

  /** The whole body: `head` then `tail` (at most {@link MAX_TAIL_BYTES}), in `coding`. */
  async bytes(coding: Coding | 'identity', tail: string): Promise<Buffer> {
    const tailBytes = Buffer.from(tail);
    if (tailBytes.length > MAX_TAIL_BYTES) throw new RangeError(`A tail of ${tailBytes.length} bytes is over ${MAX_TAIL_BYTES}`);
    if (coding === 'identity') return Buffer.concat([this.#head, tailBytes]);
    const head = await this.#compressedHead(coding);
    return coding === 'gzip' ? gzipWithTail(head, this.#head.length, tailBytes) : brotliWithTail(head, tailBytes);
  }

  #compressedHead(coding: Coding): Promise<CompressedHead> {
    let compressed = this.#compressed.get(coding);
    if (!compressed) {
      compressed = coding === 'gzip' ? flushedDeflate(this.#head) : flushedBrotli(this.#head);
      this.#compressed.set(coding, compressed);
    }
    return compressed;
  }
}

interface CompressedHead {
  bytes: Buffer;
  /** CRC-32 of the uncompressed head (gzip only). */
  crc: number;
}

/** gzip header (RFC 1952): deflate, no flags, no modification time, unknown OS. */
const GZIP_HEADER = Buffer.from([0x1f, 0x8b, 0x08, 0x00, 0, 0, 0, 0, 0x00, 0xff]);

/** Deflate ending at a sync flush: byte-aligned, its last block not final, so more blocks may follow. */
async function flushedDeflate(head: Buffer): Promise<CompressedHead> {
  const deflated = await deflateRaw(head, { level: GZIP_LEVEL, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return { bytes: Buffer.concat([GZIP_HEADER, deflated]), crc: zlib.crc32(head) };
}

/** The gzip stream of head + tail: the tail as the final, stored block, then CRC-32 and length. */
function gzipWithTail(head: CompressedHead, headLength: number, tail: Buffer): Buffer {
  const block = Buffer.alloc(5);
  block[0] = 0x01; // BFINAL = 1, BTYPE = 00 (stored); the rest of the byte is padding.
  block.writeUInt16LE(tail.length, 1);
  block.writeUInt16LE(~tail.length & 0xffff, 3);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(zlib.crc32(tail, head.crc), 0);
  trailer.writeUInt32LE((headLength + tail.length) % 2 ** 32, 4);
  return Buffer.concat([head.bytes, block, tail, trailer]);
}

/** Brotli after a flush: every meta-block so far complete, the output byte-aligned, the stream not ended. */
async function flushedBrotli(head: Buffer): Promise<CompressedHead> {
  const bytes = await brotliCompress(head, {
    finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH,
    params: {
      [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
      [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: head.length,
    },
  });
  return { bytes, crc: 0 };
}

/** ISLAST = 1, ISLASTEMPTY = 1: the stream ends. */
const BROTLI_END = Buffer.from([0x03]);

/** The Brotli stream of head + tail: the tail as an uncompressed meta-block, then the last, empty one. */
function brotliWithTail(head: CompressedHead, tail: Buffer): Buffer {
  if (tail.length === 0) return Buffer.concat([head.bytes, BROTLI_END]);
  // ISLAST = 0 (1 bit), MNIBBLES = 0 for four nibbles (2 bits), MLEN - 1 (16 bits),
  // ISUNCOMPRESSED = 1 (1 bit), then zero bits to the byte boundary: 3 bytes, LSB first.
  const header = ((tail.length - 1) << 3) | (1 << 19);
  return Buffer.concat([head.bytes, Buffer.from([header & 0xff, (header >> 8) & 0xff, header >> 16]), tail, BROTLI_END]);
}

/** How long browsers and shared caches may keep a prepared answer. */
export interface Caching {
  cacheControl: string;
}

/**
 * Answers with `body` (then `tail`) in the best coding the client accepts, or 304 when
 * `If-None-Match` holds the ETag of that very form: each coding has its own tag (a strong
 * validator names exact bytes), and a cache may only use a 304 whose tag it holds.
 */
export async function sendPrepared(
  request: FastifyRequest,
  reply: FastifyReply,
  body: PreparedBody,
  tail: string,
  caching: Caching,
  type = 'application/json; charset=utf-8',
): Promise<FastifyReply> {
  appendVary(reply, 'Accept-Encoding');
  reply.header('cache-control', caching.cacheControl);
  const coding = body.size + tail.length < COMPRESSION_THRESHOLD_BYTES ? 'identity' : chosenCoding(request.headers['accept-encoding']);
  const etag = coding === 'identity' ? body.etag : `${body.etag.slice(0, -1)}-${coding}"`;
  reply.header('etag', etag);
  if (ifNoneMatchHolds(request.headers['if-none-match'], etag)) return reply.code(304).send();
  reply.type(type);
  if (coding !== 'identity') reply.header('content-encoding', coding);
  return reply.send(await body.bytes(coding, tail));
}

/**
 * A JSON document built anew for each request (it may follow the live catalog) but
 * prepared (ETag, compressed forms) once per distinct text, so revalidation is cheap.
 */
export function preparedDocument(build: () => object, caching: Caching): (request: FastifyRequest, reply: FastifyReply) => Promise<FastifyReply> {
  let prepared: PreparedBody | undefined;
  let text = '';
  return async (request, reply) => {
    const current = JSON.stringify(build());
    if (current !== text || !prepared) {
      prepared = new PreparedBody(current);
      text = current;
    }
    return sendPrepared(request, reply, prepared, '', caching);
  };
}

/** Content codings are case-insensitive (RFC 9110, 8.4.1). */
export function chosenCoding(acceptEncoding: string | undefined): Coding | 'identity' {
  return acceptEncoding === undefined ? 'identity' : ((negotiate(acceptEncoding.toLowerCase(), CODINGS) as Coding | null) ?? 'identity');
}

/** One entity tag of a list: optionally weak, always quoted. */
const ENTITY_TAG = /^(?:W\/)?("[^"]*")$/;

/** `If-None-Match` compared weakly (RFC 9110, 13.1.2): `*`, or a listed tag equal to `etag` but for weakness. */
export function ifNoneMatchHolds(ifNoneMatch: string | undefined, etag: string): boolean {
  if (ifNoneMatch === undefined) return false;
  if (ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((candidate) => ENTITY_TAG.exec(candidate.trim())?.[1] === etag);
}

/** Adds `field` to the Vary header, keeping what other plugins (CORS) put there. */
export function appendVary(reply: FastifyReply, field: string): void {
  const current = reply.getHeader('vary');
  if (current === undefined) {
    reply.header('vary', field);
    return;
  }
  const fields = String(current);
  if (!fields.toLowerCase().split(/\s*,\s*/).includes(field.toLowerCase())) reply.header('vary', `${fields}, ${field}`);
}
