import type { Config } from '../config.js';
import type { ApiDocument } from '../http/openapi.js';
import { malformedRequestResponse } from './schemas.js';

/** What `/admin/openapi.json` says of the admin API as a whole. */
export function adminApiDocument(config: Config): ApiDocument {
  return {
    title: 'Vetrina admin API',
    description: [
      'Writes to the catalog for an operator\'s systems (ERP, commerce backend): products, stock, prices, markets, categories and collections, whole-catalog imports, the audit trail, and webhooks for catalog events; and the reads an operator finds things with: products listed and searched with drafts, markets, the taxonomy. docs/admin.md shows every route with curl.',
      'Every route but this document needs `Authorization: Bearer <token>` with a token from the server\'s ADMIN_TOKENS (`name:token` pairs); the token\'s name is recorded as the actor of every change. Sandbox keys and other credentials are refused (401). This document itself is public, like the public contract: it holds no data.',
      `Each token has its own rate-limit window (ADMIN_RATE_LIMIT per minute${config.admin.rateLimit > 0 ? `, ${config.admin.rateLimit} here` : ', switched off here'}), shared with no public or sandbox window.`,
      'Products and variants carry a `version`, sent as a strong ETag (`"3"`); writes honour `If-Match` (a stale version is 412 PRECONDITION_FAILED with details.current_version; `*` matches any existing version). A write is visible on the public catalog and MCP tools of the instance that took it before it answers, and on every other instance within a second.',
      'Errors: `{ "error": { "code", "message", "hint", "details"? }, "request_id" }`; the status follows from the code: INVALID_REQUEST 400, UNAUTHORIZED 401, NOT_FOUND 404, CONFLICT 409, PRECONDITION_FAILED 412, PAYLOAD_TOO_LARGE 413, RATE_LIMITED 429, INTERNAL_ERROR 500, STORE_UNAVAILABLE 503. Nothing is written by a request that fails. Every answer carries Cache-Control: no-store.',
    ].join('\n\n'),
    serverUrl: config.publicBaseUrl,
    tags: [
      { name: 'products', description: 'Products, drafts included: listed and searched as summaries, one in the catalog file shape.' },
      { name: 'variants', description: "One variant's stock settings and prices." },
      { name: 'bulk', description: 'Stock and prices by SKU, up to 1,000 rows, all or nothing.' },
      { name: 'regions', description: 'Markets: a currency and the countries it serves.' },
      { name: 'taxonomy', description: 'Categories (a tree) and collections, with a title per locale: what products are filed in.' },
      { name: 'imports', description: 'A whole catalog file, as the import CLI takes it, imported by a job: started (202), read (progress, report), listed and cancelled.' },
      { name: 'audit', description: 'Who changed what, when, with versions before and after.' },
      { name: 'webhooks', description: 'Catalog events POSTed to your URLs, signed (Standard Webhooks), retried, with their deliveries.' },
      { name: 'discovery', description: 'This document.' },
    ],
    securitySchemes: {
      adminBearer: { type: 'http', scheme: 'bearer', description: 'A token from ADMIN_TOKENS, sent as `Authorization: Bearer <token>`.' },
    },
    malformedRequest: malformedRequestResponse,
  };
}
