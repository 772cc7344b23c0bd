import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { SandboxKeyRequest } from '../schemas.js';
import { errorResponses, jsonResponse, keyRateLimitHeaders } from './docs.js';
import { optionalBody, type SandboxRouteKit } from './shared.js';

export function createKeyRoute(app: FastifyInstance, { services }: SandboxRouteKit): void {
  app.post<{ Body: Static<typeof SandboxKeyRequest> }>(
    '/v1/keys',
    {
      schema: {
        operationId: 'createSandboxKey',
        tags: ['sandbox'],
        summary: 'Get a sandbox key',
        description:
          'Issues a bearer key for the sandbox cart routes; no credentials needed. `scopes` (optional body) may name at most 3 unique known scopes, else 400; none named grants all three (catalog:read, cart:write, checkout:create). The key expires 24 h after creation, and the carts made with it expire with it. Only a SHA-256 hash of the token is stored: it is shown once. For that reason Idempotency-Key is not honoured here (a replay would need the token stored) and not echoed: every call issues a new key; a client unsure whether a call succeeded simply asks again. Limited to 20 keys per client IP per hour (429 with Retry-After beyond).',
        'x-optional-body': true,
        body: Type.Ref('SandboxKeyRequest'),
        response: {
          201: jsonResponse('The new key', 'SandboxKeyResponse', {
            ...keyRateLimitHeaders,
            'Cache-Control': Type.String({ description: 'no-store: the token must not be cached.' }),
          }),
          ...errorResponses(
            {
              400: 'sandbox_invalid_request: more than 3, duplicate or unknown scopes, extra properties, or malformed JSON.',
              429: 'sandbox_rate_limited: too many keys from this client IP in the last hour.',
            },
            keyRateLimitHeaders,
          ),
        },
      },
      onRequest: services.rateLimits.keys,
      preValidation: optionalBody,
    },
    async (request, reply) => {
      reply.code(201);
      return services.issueKey(request.body.scopes);
    },
  );
}
