import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { KEY_LIFETIME_HOURS } from '../keys.js';
import { keyLimitText } from '../rate-limits.js';
import { KEY_SCENARIOS, scenarioParameter } from '../scenarios.js';
import type { SandboxKeyRequest } from '../schemas.js';
import { DEFAULT_SCOPES, SCOPES } from '../scopes.js';
import { errorResponses, jsonResponse, keyRateLimitHeaders } from './docs.js';
import { optionalBody, scenarioOf, type SandboxRouteKit } from './shared.js';

/** POST /sandbox/v1/keys: key issuance, open to anyone within the per-IP limit. */
export function keyRoutes(app: FastifyInstance, { config, services }: SandboxRouteKit): void {
  const rateLimitHeaders = keyRateLimitHeaders(config.sandbox);
  app.post<{ Body: Static<typeof SandboxKeyRequest> }>(
    '/v1/keys',
    {
      schema: {
        operationId: 'createSandboxKey',
        tags: ['sandbox'],
        summary: 'Get a sandbox key',
        security: [],
        description: `Issues a bearer key for the sandbox cart routes; no credentials needed. \`scopes\` (optional body) may name at most ${SCOPES.length} unique known scopes, else 400; none named grants ${DEFAULT_SCOPES.join(', ')}. The key expires ${KEY_LIFETIME_HOURS} h after creation, and the carts made with it expire with it. Only a SHA-256 hash of the token is stored: it is shown once. For that reason Idempotency-Key is not honoured here (a replay would need the token stored) and not echoed: every call issues a new key; a client unsure whether a call succeeded simply asks again. Limit: ${keyLimitText(config.sandbox)} (429 with Retry-After beyond).`,
        headers: Type.Object({ 'sandbox-scenario': scenarioParameter(KEY_SCENARIOS) }),
        'x-optional-body': true,
        body: Type.Ref('SandboxKeyRequest'),
        response: {
          201: jsonResponse('The new key', 'SandboxKeyResponse', {
            ...rateLimitHeaders,
            'Cache-Control': Type.String({ description: 'no-store: the token must not be cached.' }),
          }),
          ...errorResponses(
            {
              400: `sandbox_invalid_request: more than ${SCOPES.length}, duplicate or unknown scopes, extra properties, a Sandbox-Scenario other than ${KEY_SCENARIOS.join(' or ')}, or malformed JSON.`,
              429: 'sandbox_rate_limited: too many keys from this client IP in the last hour, or the rate_limited scenario was asked for.',
            },
            rateLimitHeaders,
          ),
        },
      },
      onRequest: services.rateLimits.keys,
      preValidation: optionalBody,
    },
    async (request, reply) => {
      reply.code(201);
      return services.issueKey(request.body.scopes, scenarioOf(request));
    },
  );
}
