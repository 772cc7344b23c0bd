import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../config.js';
import { apiReference } from './api-reference.js';
import { portalAssets, STATIC_FILE_URLS } from './assets.js';
import { changelogPage } from './changelog-page.js';
import { consolePage } from './console-page.js';
import { homePage } from './home-page.js';
import { sandboxGuidePage } from './sandbox-guide-page.js';
import type { AcpPaths, UcpPaths } from './links.js';

/**
 * Everything a portal page may load: this server's own files and calls, nothing from
 * another host. `data:` images are Swagger UI's icons, inlined in its stylesheet.
 */
const CONTENT_SECURITY_POLICY =
  "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";
/** The pages change only with a deployment or the markets: a minute of caching is harmless and spares repeat visits. */
const CACHE_CONTROL = 'public, max-age=60';

/**
 * The developer portal served by the service itself: `/` (home, or a JSON index for API
 * clients), `/docs` (the API reference with try-it), `/docs/sandbox` (the sandbox flow
 * in the browser), `/docs/changelog` (deprecations read from the contract) and `/console`
 * (the operator console, over the admin API). The pages
 * count against the catalog rate limit; their static files (assets.ts) are prepared once,
 * cached hard and do not, so browsing the portal uses a request or two per page. Unknown
 * URLs keep the public API's 404.
 */
export const portalPlugin = fp<{ config: Config; ucpPaths: UcpPaths; acpPaths: AcpPaths }>(
  async (app: FastifyInstance, { config, ucpPaths, acpPaths }) => {
    app.addHook('onRequest', (request, reply) => (STATIC_FILE_URLS.has(request.url) ? Promise.resolve() : app.catalogRateLimit(request, reply)));
    app.addHook('onSend', async (_request, reply) => {
      reply.header('content-security-policy', CONTENT_SECURITY_POLICY);
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', CACHE_CONTROL);
    });
    homePage(app, config.publicBaseUrl, ucpPaths, acpPaths);
    sandboxGuidePage(app);
    changelogPage(app);
    consolePage(app, config.admin.tokens.length > 0);
    portalAssets(app);
    await apiReference(app);
  },
  { name: 'portal', dependencies: ['openapi', 'catalog'], encapsulate: true },
);
