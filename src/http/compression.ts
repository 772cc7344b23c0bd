import fastifyCompress from '@fastify/compress';
import fp from 'fastify-plugin';
import { COMPRESSION_THRESHOLD_BYTES } from './prepared-body.js';

/**
 * Compresses answers over about 1 KB with Brotli or gzip, as the client asks. Routes
 * that send the same answer many times prepare their compressed forms once instead
 * ({@link ./prepared-body.ts}) and opt out with `compress: false`, as do the MCP
 * endpoints, whose event streams must not wait in a compressor's buffer. Request bodies
 * are never decompressed: a body with a Content-Encoding is refused (415).
 */
export const compression = fp(
  async (app) => {
    await app.register(fastifyCompress, {
      global: true,
      encodings: ['br', 'gzip'],
      threshold: COMPRESSION_THRESHOLD_BYTES,
      globalDecompression: false,
    });
  },
  { name: 'compression' },
);
