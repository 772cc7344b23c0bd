import { readFile } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import { ASSETS_PREFIX } from './links.js';

/** The portal's stylesheet and script: files of ours beside this module (the build copies them into dist/). */
const ASSETS = {
  'portal.css': 'text/css; charset=utf-8',
  'sandbox-guide.js': 'text/javascript; charset=utf-8',
} as const;

/** Serves the assets from memory: read once at start, a few kilobytes. */
export async function portalAssets(app: FastifyInstance): Promise<void> {
  for (const [name, type] of Object.entries(ASSETS)) {
    const content = await readFile(new URL(`./assets/${name}`, import.meta.url));
    app.get(`${ASSETS_PREFIX}/${name}`, { schema: { hide: true } }, async (_request, reply) => reply.type(type).send(content));
  }
}
