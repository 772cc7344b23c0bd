import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { preparedDocument, type Caching } from '../../http/prepared-body.js';
import type { RateLimitCheck } from '../../http/rate-limit.js';
import { UCP_PATHS } from '../endpoints.js';
import { UCP_TAG } from '../openapi.js';
import { protocolErrorResponse } from '../errors.js';
import { paymentHandlerSchema, paymentHandlerSpecification } from './payment-handler.js';

/**
 * overview.md, Profile Requirements: a profile is served with `public` and a `max-age` of
 * at least 60 s. It changes only with a deployment or the catalog's markets; five
 * minutes spares platforms refetching it, and its ETag revalidates it cheaply after that.
 */
export const PROFILE_CACHING: Caching = { cacheControl: 'public, max-age=300' };

const cacheHeaders = {
  ETag: Type.String({ description: 'Strong validator; If-None-Match with it gets 304 while the document is unchanged.' }),
  'Cache-Control': Type.String({ description: `\`${PROFILE_CACHING.cacheControl}\`` }),
};

const MALFORMED = protocolErrorResponse('invalid_request: a malformed request (a repeated Host or Authorization header).');

const NOT_MODIFIED = { description: 'Not Modified: If-None-Match holds the ETag of the document as it is now; no body.', headers: cacheHeaders };

export interface ProfileRouteOptions {
  rateLimit: RateLimitCheck;
  /** The business profile as it is now. */
  profile: () => object;
}

/** `GET /.well-known/ucp`: the business profile, at the root of the host as the protocol wants it; in `scope`, whose prefix is that path. */
export function profileRoute(scope: FastifyInstance, { rateLimit, profile }: ProfileRouteOptions): void {
  scope.get(
    '',
    {
      onRequest: rateLimit,
      compress: false,
      schema: {
        operationId: 'getUcpProfile',
        tags: [UCP_TAG],
        summary: 'The UCP business profile',
        description:
          'The Universal Commerce Protocol discovery profile of this business (overview.md, Business Profile): the dev.ucp.shopping service over REST and MCP, the capabilities served, the simulated payment handler and the key order webhooks are signed with. Counts against the catalog rate limit.',
        security: [],
        response: {
          200: {
            description: 'The business profile.',
            headers: cacheHeaders,
            content: { 'application/json': { schema: BusinessProfileSchema } },
          },
          304: NOT_MODIFIED,
          400: MALFORMED,
          429: protocolErrorResponse('rate_limited: the catalog rate limit (Retry-After).'),
        },
      },
    },
    preparedDocument(profile, PROFILE_CACHING),
  );
}

/** The simulated payment handler's specification and schema, under the `/ucp` context. */
export function paymentHandlerRoutes(scope: FastifyInstance, { publicBaseUrl, rateLimit }: { publicBaseUrl: string; rateLimit: RateLimitCheck }): void {
  const schema = paymentHandlerSchema(publicBaseUrl);
  const specification = paymentHandlerSpecification(publicBaseUrl);
  const rateLimited = protocolErrorResponse('rate_limited: the catalog rate limit (Retry-After).');
  scope.get(
    UCP_PATHS.paymentHandlerSchema.replace(/^\/ucp/, ''),
    {
      onRequest: rateLimit,
      compress: false,
      schema: {
        operationId: 'getUcpPaymentHandlerSchema',
        tags: [UCP_TAG],
        summary: 'The simulated payment handler: its JSON Schema',
        description: 'The JSON Schema (draft 2020-12) of the sandbox payment handler the business profile declares: its config, instrument and credential shapes.',
        security: [],
        response: {
          200: { description: 'The handler schema.', headers: cacheHeaders, content: { 'application/json': { schema: Type.Object({}, { additionalProperties: true }) } } },
          304: NOT_MODIFIED,
          400: MALFORMED,
          429: rateLimited,
        },
      },
    },
    preparedDocument(() => schema, PROFILE_CACHING),
  );
  scope.get(
    UCP_PATHS.paymentHandlerSpec.replace(/^\/ucp/, ''),
    {
      onRequest: rateLimit,
      schema: {
        operationId: 'getUcpPaymentHandlerSpecification',
        tags: [UCP_TAG],
        summary: 'The simulated payment handler: its specification',
        description: 'The human-readable specification of the sandbox payment handler (Markdown, as plain text): its tokens and what each does.',
        security: [],
        response: {
          200: { description: 'The specification.', content: { 'text/plain': { schema: Type.String() } } },
          400: MALFORMED,
          429: rateLimited,
        },
      },
    },
    async (_request, reply) => reply.header('cache-control', PROFILE_CACHING.cacheControl).type('text/plain; charset=utf-8').send(specification),
  );
}

const Entity = {
  version: Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' }),
  spec: Type.String({ format: 'uri' }),
  schema: Type.String({ format: 'uri' }),
};

/** What this service's profile holds, for the document; the release's profile schema is the authority. */
const BusinessProfileSchema = Type.Object(
  {
    ucp: Type.Object(
      {
        version: Entity.version,
        services: Type.Record(
          Type.String(),
          Type.Array(Type.Object({ ...Entity, transport: Type.Union([Type.Literal('rest'), Type.Literal('mcp')]), endpoint: Type.String({ format: 'uri' }) })),
        ),
        capabilities: Type.Record(
          Type.String(),
          Type.Array(
            Type.Object({
              ...Entity,
              extends: Type.Optional(Type.Union([Type.String(), Type.Array(Type.String())])),
              config: Type.Optional(Type.Object({}, { additionalProperties: true })),
            }),
          ),
        ),
        payment_handlers: Type.Record(
          Type.String(),
          Type.Array(
            Type.Object({
              ...Entity,
              id: Type.String(),
              available_instruments: Type.Array(Type.Object({ type: Type.String() })),
              config: Type.Object({ environment: Type.Literal('sandbox'), currencies: Type.Array(Type.String()) }),
            }),
          ),
        ),
      },
      { description: 'Protocol metadata: version, services, capabilities and payment handlers.' },
    ),
    signing_keys: Type.Array(
      Type.Object({
        kid: Type.String(),
        kty: Type.Literal('EC'),
        crv: Type.Literal('P-256'),
        x: Type.String(),
        y: Type.String(),
        use: Type.Literal('sig'),
        alg: Type.Literal('ES256'),
      }),
      { description: 'The public key (JWK) order webhooks are signed with; the same on every instance.' },
    ),
  },
  { title: 'UcpBusinessProfile' },
);
