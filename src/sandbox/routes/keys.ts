import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import { CREATE_KEY } from '../operations.js';
import { KEY_SCENARIOS, scenarioParameter } from '../scenarios.js';
import type { SandboxKeyRequest } from '../schemas.js';
import { SCOPES } from '../scopes.js';
import { errorResponses, jsonResponse, keyRateLimitHeaders } from './docs.js';
import { operationSchema, optionalBody, scenarioOf, type SandboxRouteKit } from './shared.js';

/** POST /sandbox/v1/keys: key issuance, open to anyone within the per-IP limit. */
export function keyRoutes(app: FastifyInstance, { config, services }: SandboxRouteKit): void {
  const rateLimitHeaders = keyRateLimitHeaders(config.sandbox);
  app.post<{ Body: Static<typeof SandboxKeyRequest> }>(
    CREATE_KEY.route,
    {
      schema: {
        ...operationSchema(CREATE_KEY, config.sandbox),
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
