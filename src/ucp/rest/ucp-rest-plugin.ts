import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type TObject, type TSchema } from 'typebox';
import type { RateLimitCheck } from '../../http/rate-limit.js';
import { useErrorSurface } from '../../http/error-surface.js';
import { isUuid } from '../../http/request-id.js';
import { sentenceSchemaError } from '../../http/schema-errors.js';
import { UcpMetadataSchema } from '../envelope.js';
import { protocolErrorResponse, ucpRestErrors, UcpErrorResponseSchema } from '../errors.js';
import type { Negotiated } from '../negotiation/negotiated.js';
import type { Negotiator } from '../negotiation/negotiator.js';
import { UCP_TAG } from '../openapi.js';
import { IDEMPOTENCY_CONFLICT, IDEMPOTENCY_RULES, REPLAYED_HEADER, uuidSchema } from '../idempotency.js';
import { runOperation, type UcpOperation, type UcpOperationKit } from '../operation.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the request negotiated, set by the UCP REST routes before anything else runs. */
    ucpNegotiated: Negotiated | null;
  }
}

export interface UcpRestOptions {
  operations: readonly UcpOperation<any>[];
  negotiator: Negotiator;
  kit: UcpOperationKit;
  /** The catalog window: every request to the binding counts against it, as every MCP request does. */
  rateLimit: RateLimitCheck;
}

// Lower-case: Fastify validates header schemas against Node's lower-cased header names.
const UcpAgent = Type.String({
  description:
    'The platform profile URL, as an RFC 8941 dictionary: `profile="https://platform.example/profile.json"`. Fetched (https only), validated and cached; the request is negotiated against it (docs/ucp.md).',
});
const IdempotencyKey = uuidSchema(IDEMPOTENCY_RULES);
const RequestId = uuidSchema(
  "The platform's id of the request, for tracing it across systems: echoed as a header of the answer and logged with the request (as `ucpRequestId`, beside this service's own id, the `X-Request-Id` answered).",
);

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 255, description: 'The resource id.' }) });

/**
 * The REST binding under `/ucp/v1` (the profile's REST `endpoint`): one route per
 * operation, each counting against the catalog window, negotiating with the platform
 * named in `UCP-Agent` before anything else, and answering in UCP's shapes: the answer
 * with its `ucp` field, business outcomes with 200, protocol errors as `{ code, content }`.
 */
export async function ucpRestPlugin(scope: FastifyInstance, { operations, negotiator, kit, rateLimit }: UcpRestOptions): Promise<void> {
  useErrorSurface(scope, ucpRestErrors);
  scope.setSchemaErrorFormatter(sentenceSchemaError);
  // UCP answers are built afresh for each request: JSON.stringify writes them.
  scope.setSerializerCompiler(() => (data) => JSON.stringify(data));
  scope.decorateRequest('ucpNegotiated', null);
  // A bodiless POST often still says `Content-Type: application/json`: no body, not a 400.
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') done(null, undefined);
    else parseJson(request, body as string, done);
  });

  // The platform's Request-Id, when it is one (a malformed one is refused by the route's
  // header schema), goes into every log line of the request and back on every answer, refusals included.
  scope.setChildLoggerFactory((logger, bindings, options, raw) => {
    const platformId = raw.headers['request-id'];
    return logger.child(isUuid(platformId) ? { ...bindings, ucpRequestId: platformId } : bindings, options);
  });
  scope.addHook('onRequest', async (request, reply) => {
    const platformId = request.headers['request-id'];
    if (isUuid(platformId)) reply.header('request-id', platformId);
  });

  const negotiate = async (request: FastifyRequest) => {
    request.ucpNegotiated = await negotiator.fromHeader(request.headers['ucp-agent']);
  };

  for (const op of operations) {
    const takesId = op.path.includes('{id}');
    scope.route<{ Params: { id?: string }; Body: unknown }>({
      method: op.method,
      url: op.path.replace('{id}', ':id'),
      onRequest: [rateLimit, negotiate],
      schema: {
        operationId: op.name,
        tags: [UCP_TAG],
        summary: op.title,
        description: op.description,
        security: op.scope === undefined ? [] : [{ sandboxBearer: [op.scope] }],
        headers: Type.Object({
          'ucp-agent': UcpAgent,
          'request-id': Type.Optional(RequestId),
          ...(op.idempotent && { 'idempotency-key': Type.Optional(IdempotencyKey) }),
        }),
        ...(takesId && { params: IdParams }),
        ...(op.payload && { body: op.payload.schema }),
        response: responses(op),
      },
      handler: async (request, reply) => {
        const idempotencyKey = request.headers['idempotency-key'];
        const answer = await runOperation(
          op,
          { ...(takesId && { id: request.params.id }), payload: op.payload && request.body },
          {
            negotiated: request.ucpNegotiated!,
            request,
            reply,
            ...(op.idempotent && typeof idempotencyKey === 'string' && { idempotencyKey }),
          },
          kit,
        );
        reply.code(answer.statusCode);
        if (answer.replayed === undefined) return reply.send(answer.body);
        return reply.header(REPLAYED_HEADER, 'true').type('application/json; charset=utf-8').send(answer.replayed);
      },
    });
  }
}

/** The documented answers of an operation: its resource or a business outcome, and the protocol errors. */
function responses(op: UcpOperation<any>): Record<string, object> {
  const resource = Type.Object({ ucp: UcpMetadataSchema, ...op.result.properties }, { title: `${op.name}_response` }) as TObject;
  const answer = (description: string, schema: object) => ({ description, headers: answerHeaders(op), content: { 'application/json': { schema } } });
  const outcome = 'A business outcome with no resource (ucp.status `error`, messages saying why): capabilities_incompatible when the platform shares no version of the capability, not_found...';
  // Several errors of one status share its response; an operation's own come last.
  const protocolErrors: [string, string | false][] = [
    ['400', 'invalid_profile_url: the UCP-Agent header is missing or malformed, or its URL is not one this service fetches; invalid_request: the request does not match the operation.'],
    ['401', op.scope !== undefined && 'sandbox_unauthorized: no sandbox key, or an unknown or expired one, or one lacking the scope.'],
    ['409', op.idempotent === true && `${IDEMPOTENCY_CONFLICT}: this Idempotency-Key was already used for the operation with another resource id or body.`],
    ['422', "profile_malformed: the platform profile is not JSON or not a UCP platform profile; version_unsupported: its protocol version is not this service's."],
    ['424', 'profile_unreachable: the platform profile could not be fetched (time-out, HTTP error, too large).'],
    ['429', 'rate_limited: the catalog rate limit (Retry-After).'],
    ['500', 'internal_error: a temporary failure.'],
    ['503', 'discovery_busy: too many platform profiles are being fetched at once; unavailable: the store is unreachable (Retry-After).'],
    ...Object.entries(op.errors ?? {}),
  ];
  const described = new Map<string, string>();
  for (const [status, description] of protocolErrors) {
    if (description) described.set(status, [described.get(status), description].filter(Boolean).join('; '));
  }
  return {
    ...(op.creates
      ? { 201: answer(op.title, resource), 200: answer(outcome, UcpErrorResponseSchema) }
      : { 200: answer(`${op.title}, or ${outcome}`, Type.Union([resource, UcpErrorResponseSchema])) }),
    ...Object.fromEntries([...described].map(([status, description]) => [status, protocolErrorResponse(description)])),
  };
}

/** The headers of an operation's answers besides the service's own (X-Request-Id, RateLimit-*). */
function answerHeaders(op: UcpOperation<any>): Record<string, TSchema> {
  return {
    'Request-Id': Type.String({ format: 'uuid', description: "The request's Request-Id, when it sent one." }),
    ...(op.idempotent && {
      'Idempotent-Replayed': Type.String({ enum: ['true'], description: 'Present when this is the recorded answer of an earlier call with the same Idempotency-Key, replayed byte for byte.' }),
    }),
  };
}
