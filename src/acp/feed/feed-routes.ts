import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchemaValidationError } from 'fastify';
import { Type, type Static, type TSchema } from 'typebox';
import { LOCALES } from '../../catalog/model/locales.js';
import type { CatalogResponses } from '../../catalog/public-api/routes/shared.js';
import type { RateLimitCheck } from '../../http/rate-limit.js';
import { sendStreamed } from '../../http/streamed-body.js';
import { acpErrorResponse, AcpProblem } from '../errors.js';
import { ACP_TAG } from '../openapi.js';
import { ACP_VERSION } from '../version.js';
import type { FeedDocuments, FeedFile } from './feed-documents.js';
import { FeedMetadataSchema, FeedProductsSchema } from './feed-schemas.js';

export interface FeedRouteKit {
  documents: FeedDocuments;
  rateLimit: RateLimitCheck;
  /** The catalog's documented answers (its headers, 304), with the deployment's limit and cache lifetimes. */
  responses: CatalogResponses;
  /** The catalog window in words (catalogLimitInWords). */
  limitInWords: string;
}

const Params = Type.Object({
  country: Type.String({ pattern: '^[A-Za-z]{2}$', description: 'The market: a country a region of the catalog serves (ISO 3166-1 alpha-2), e.g. IT.' }),
});

const Query = Type.Object({
  locale: Type.Optional(Type.String({ description: `The language of titles, descriptions and category paths: ${LOCALES.join(' or ')} (default ${LOCALES[0]}).` })),
});

interface FeedRequest {
  Params: Static<typeof Params>;
  Querystring: Static<typeof Query>;
}

interface FeedFileRoute {
  file: FeedFile;
  operationId: string;
  summary: string;
  description: string;
  /** The answer's media type and schema, for the document. */
  content: Record<string, { schema: TSchema }>;
}

const STREAMED = 'Streamed product by product, compressed as it streams when asked (gzip or br), so a large catalog is never whole in memory.';

const FILES: readonly FeedFileRoute[] = [
  {
    file: 'metadata.json',
    operationId: 'getAcpFeedMetadata',
    summary: "The ACP feed's metadata (metadata.json)",
    description: `The release's FeedMetadata of the market's feed: its id (country and locale), the country, and when the catalog version it shows was made.`,
    content: { 'application/json': { schema: FeedMetadataSchema } },
  },
  {
    file: 'products.json',
    operationId: 'getAcpFeedProducts',
    summary: 'The ACP product feed as one JSON document',
    description: `Every published product in the release's ProductsResponse shape, newest first: variants with their price in the market (minor units), availability, option values and category paths. ${STREAMED}`,
    content: { 'application/json': { schema: FeedProductsSchema } },
  },
  {
    file: 'products.jsonl',
    operationId: 'getAcpFeedProductsLines',
    summary: 'The ACP product feed as JSON Lines (products.jsonl)',
    description: `The same products as products.json, one release Product per line: the file of the release's full-replacement publication. ${STREAMED}`,
    content: { 'application/jsonl': { schema: Type.String({ description: 'One AcpFeedProduct (JSON) per line.' }) } },
  },
];

/**
 * The product feed of each market (docs/acp.md, Product feed), keyless and counted
 * against the catalog window like /public/v1: `GET /acp/feed/{country}/{file}`.
 */
export function feedRoutes(app: FastifyInstance, { documents, rateLimit, responses, limitInWords }: FeedRouteKit): void {
  for (const route of FILES) {
    const ok = responses.ok(route.summary, Type.Null()) as { content: unknown };
    const url = `/feed/:country/${route.file}`;
    const handler = async (request: FastifyRequest<FeedRequest>, reply: FastifyReply) =>
      sendStreamed(request, reply, await documents.answer(route.file, { country: request.params.country, locale: request.query.locale }));
    const checks = { schemaErrorFormatter: feedSchemaError, onRequest: rateLimit, compress: false as const };
    app.get<FeedRequest>(
      url,
      {
        schema: {
          operationId: route.operationId,
          tags: [ACP_TAG],
          summary: route.summary,
          security: [],
          // Answered for HEAD by the route below: documented as Fastify's own HEAD routes are (src/http/openapi.ts).
          'x-head': true,
          description: `${route.description} ACP ${ACP_VERSION}, rfc.product_feeds.md's offline publication. Keyless, cacheable like the catalog (ETag of the catalog version, Last-Modified, 304); counts against the catalog rate limit (${limitInWords}).`,
          params: Params,
          querystring: Query,
          response: {
            200: { ...ok, content: route.content },
            304: responses.notModified,
            400: acpErrorResponse('invalid_request: a malformed country or an unsupported locale'),
            404: acpErrorResponse('feed_not_found: no region of the catalog serves the country'),
            429: acpErrorResponse(`rate_limited: over the catalog rate limit (${limitInWords}); Retry-After says when to retry`),
          },
        },
        // Streamed answers compress as they stream (src/http/streamed-body.ts).
        ...checks,
        // Fastify's own HEAD route would make the whole document to throw it away, and say Content-Length: 0.
        exposeHeadRoute: false,
      },
      handler,
    );
    app.head<FeedRequest>(url, { schema: { hide: true, params: Params, querystring: Query }, ...checks }, handler);
  }
}

/** A malformed parameter as ACP words it: invalid_request, naming the parameter. */
function feedSchemaError(errors: FastifySchemaValidationError[], dataVar: string): Error {
  const error = errors[0];
  const param = (error?.params as { missingProperty?: string } | undefined)?.missingProperty ?? error?.instancePath.split('/')[1] ?? dataVar;
  return new AcpProblem(400, 'invalid_request', `Invalid ${param}: ${error?.message ?? 'not accepted'}.`, param);
}
