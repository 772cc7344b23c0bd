import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { PreparedBody, sendPrepared } from '../http/prepared-body.js';
import { ASSETS_PREFIX, PAGES } from './links.js';

const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.png': 'image/png',
};
const typeOf = (name: string) => TYPES[path.extname(name)]!;

/** Our own files beside this module (the build copies them into dist/), read once at start: a few kilobytes. */
const OWN = Object.fromEntries(
  ['portal.css', 'sandbox-guide.js', 'console.js'].map((name) => {
    const content = readFileSync(new URL(`./assets/${name}`, import.meta.url));
    const hash = createHash('sha256').update(content).digest('hex').slice(0, 12);
    const dot = name.lastIndexOf('.');
    return [name, { content, url: `${ASSETS_PREFIX}/${name.slice(0, dot)}.${hash}${name.slice(dot)}` }];
  }),
);

/** The URL of one of our own assets: its content's hash is in its name, so it may be cached for good. */
export const assetUrl = (name: keyof typeof OWN & string): string => OWN[name]!.url;

/** What Swagger UI's page (`/docs`) loads from the npm package's copy of swagger-ui-dist, besides its generated initializer. */
const SWAGGER_UI_FILES = ['swagger-ui.css', 'index.css', 'swagger-ui-bundle.js', 'swagger-ui-standalone-preset.js', 'favicon-32x32.png', 'favicon-16x16.png'];
const SWAGGER_UI_DIR = path.join(path.dirname(createRequire(import.meta.url).resolve('@fastify/swagger-ui')), 'static');

/** Names its version in the URL: kept a year, never asked again. */
const IMMUTABLE = { cacheControl: 'public, max-age=31536000, immutable' };
/** Swagger UI's URLs do not change with its version: a day, then revalidated (a 304) by the ETag. */
const A_DAY = { cacheControl: 'public, max-age=86400' };

/**
 * The URLs of the portal's static files: served from memory, prepared once (their ETag
 * and compressed forms: Swagger UI's bundle is over a megabyte), cached hard, and so left
 * out of the catalog rate limit, which is there for the answers that cost work.
 */
export const STATIC_FILE_URLS = new Set([...Object.values(OWN).map((own) => own.url), ...SWAGGER_UI_FILES.map((name) => `${PAGES.apiReference}/static/${name}`)]);

/**
 * Serves our assets under their hashed names, and Swagger UI's files in place of
 * `@fastify/static`'s copy (exact routes win over its wildcard).
 */
export function portalAssets(app: FastifyInstance): void {
  const serve = (url: string, content: Buffer, type: string, caching: { cacheControl: string }) => {
    const body = new PreparedBody(content);
    // compress: false: the prepared body carries its own compressed forms.
    app.get(url, { schema: { hide: true }, compress: false }, (request, reply) => sendPrepared(request, reply, body, '', caching, type));
  };
  for (const [name, own] of Object.entries(OWN)) serve(own.url, own.content, typeOf(name), IMMUTABLE);
  for (const name of SWAGGER_UI_FILES) serve(`${PAGES.apiReference}/static/${name}`, readFileSync(path.join(SWAGGER_UI_DIR, name)), typeOf(name), A_DAY);
}
