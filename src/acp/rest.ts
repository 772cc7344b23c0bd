import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { sentenceSchemaError } from '../http/schema-errors.js';
import { changesState, fillPath, pathParameter, PathId, requireServedVersion, runAcpOperation, verifySignature, type AcpSigning } from './binding.js';
import { AcpProblem, acpErrorResponse } from './errors.js';
import type { AcpOperation, AcpOperationKit } from './operation.js';
import { ACP_TAG } from './openapi.js';
import { ACP_VERSION } from './version.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The request body as sent, for its signature (docs/acp.md, Request signatures); '' without one. */
    acpRawBody: string;
  }
}

export interface AcpRestOptions {
  operations: readonly AcpOperation<any>[];
  kit: AcpOperationKit;
  /** Set when the deployment verifies request signatures (ACP_SIGNING_SECRET). */
  signing: AcpSigning | undefined;
}

// Lower-case: Fastify validates header schemas against Node's lower-cased header names.
const Headers = {
  'api-version': Type.String({ description: `The protocol version: ${ACP_VERSION}, the only one served (else 400 missing_api_version or unsupported_api_version).` }),
  'request-id': Type.Optional(Type.String({ maxLength: 255, description: 'Echoed on the answer.' })),
  signature: Type.Optional(Type.String({ maxLength: 1024, description: 'Required when the deployment has ACP_SIGNING_SECRET: base64url HMAC-SHA256 of `<Timestamp>.<body>` (docs/acp.md, Request signatures).' })),
  timestamp: Type.Optional(Type.String({ maxLength: 64, description: 'RFC 3339; required with Signature, within ACP_SIGNATURE_TOLERANCE_SECONDS of the server clock.' })),
};
const IdempotencyKey = Type.String({
  minLength: 1,
  maxLength: 255,
  description:
    'Required on every POST, PUT and DELETE (else 400 idempotency_key_required), echoed. Scoped to the key and the path: the same key and body replay the first answer (Idempotent-Replayed: true) for 24 h; the same key with another body is 422 idempotency_conflict.',
});

/**
 * The ACP REST binding under `/acp`: one route per operation. Before an operation runs,
 * in this order: the API-Version is the one served, a POST, PUT or DELETE carries an Idempotency-Key,
 * the signature holds (when a secret is configured), the body matches the operation,
 * and the bearer is a sandbox key with the operation's scope (counted against the
 * key's cart limit). Request-Id and Idempotency-Key are echoed on every answer. Errors
 * are answered by the ACP error surface of the enclosing `/acp` context.
 */
export async function acpRestPlugin(scope: FastifyInstance, { operations, kit, signing }: AcpRestOptions): Promise<void> {
  scope.setSchemaErrorFormatter(sentenceSchemaError);
  // ACP answers are built afresh for each request: JSON.stringify writes them.
  scope.setSerializerCompiler(() => (data) => JSON.stringify(data));
  scope.decorateRequest('acpRawBody', '');
  // Sessions, addresses and payment tokens of one key: no cache keeps any answer (errors already are not kept).
  scope.addHook('onSend', async (_request, reply) => void reply.header('cache-control', 'no-store'));
  // The body is kept as sent for its signature; a bodiless POST that still says JSON has no body.
  const parseJson = scope.getDefaultJsonParser('error', 'error');
  scope.removeContentTypeParser('application/json');
  scope.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    request.acpRawBody = body as string;
    if (body === '') done(null, undefined);
    else parseJson(request, body as string, done);
  });
  scope.addHook('onRequest', async (request, reply) => protocolHeaders(request, reply));
  if (signing) {
    scope.addHook('preValidation', async (request) => verifySignature(signing, { signature: request.headers.signature, timestamp: request.headers.timestamp }, request.acpRawBody));
  }

  for (const op of operations) {
    const parameter = pathParameter(op.path);
    const changes = changesState(op.method);
    scope.route<{ Params: Record<string, string>; Body: unknown }>({
      method: op.method,
      url: parameter === undefined ? op.path : fillPath(op.path, `:${parameter}`),
      ...(op.body?.required === false && { preValidation: async (request) => void (request.body ??= {}) }),
      schema: {
        operationId: op.name,
        tags: [ACP_TAG],
        summary: op.title,
        description: op.description,
        security: [{ sandboxBearer: [op.scope] }],
        headers: Type.Object({ ...Headers, ...(changes && { 'idempotency-key': IdempotencyKey }) }),
        ...(parameter !== undefined && { params: Type.Object({ [parameter]: PathId }) }),
        ...(op.body && { body: op.body.schema }),
        response: responses(op),
      },
      handler: async (request, reply) => {
        const id = parameter === undefined ? undefined : request.params[parameter];
        // protocolHeaders made sure a POST, PUT or DELETE has its key.
        const idempotencyKey = changes ? (request.headers['idempotency-key'] as string) : undefined;
        const outcome = await runAcpOperation(op, { ...(id !== undefined && { id }), body: request.body }, { request, reply, ...(idempotencyKey !== undefined && { idempotencyKey }) }, kit.sandbox);
        if (outcome.replayed) reply.header('idempotent-replayed', 'true');
        return reply.code(outcome.statusCode).headers(outcome.headers).type('application/json; charset=utf-8').send(outcome.json);
      },
    });
  }
}

/** The headers every ACP request is checked for and every answer echoes, before anything else runs. */
function protocolHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const { 'request-id': requestId, 'idempotency-key': idempotencyKey, 'api-version': version } = request.headers;
  if (typeof requestId === 'string') reply.header('request-id', requestId);
  if (typeof idempotencyKey === 'string' && idempotencyKey !== '') reply.header('idempotency-key', idempotencyKey);
  requireServedVersion(version, 'Send the API-Version header');
  if (changesState(request.method) && (typeof idempotencyKey !== 'string' || idempotencyKey === '')) {
    throw new AcpProblem(400, 'idempotency_key_required', 'Send an Idempotency-Key header (at most 255 characters; a UUID v4 is a good choice) on every POST, PUT and DELETE.');
  }
}

/** The documented answers of an operation: the protocol's errors, with the operation's own joined to them. */
function responses(op: AcpOperation<any>): Record<string, object> {
  const changes = changesState(op.method);
  const errors: Record<number, string> = {
    400: `missing_api_version, unsupported_api_version: the API-Version header is missing or not ${ACP_VERSION}; ${changes ? 'idempotency_key_required: no Idempotency-Key; ' : ''}invalid_request: the request does not match the operation.`,
    401: 'unauthorized: no sandbox key, or an unknown or expired one; insufficient_scope: a key without the scope; signature_required, timestamp_invalid, timestamp_out_of_window, signature_invalid: with ACP_SIGNING_SECRET set, the request signature does not hold.',
    429: "rate_limited: the key's cart limit (Retry-After).",
    500: 'processing_error: a temporary failure.',
    503: 'sandbox_disabled: the sandbox is off on this deployment; unavailable: the store is unreachable (Retry-After).',
  };
  if (changes) errors[422] = 'idempotency_conflict: the Idempotency-Key was used with another body on this path.';
  for (const [status, description] of Object.entries(op.errors)) {
    const code = Number(status);
    errors[code] = errors[code] === undefined ? description : `${errors[code]} ${description}`;
  }
  return {
    [op.successStatus]: {
      description: op.title,
      headers: {
        'Request-Id': Type.String({ description: "The request's Request-Id, when it sent one." }),
        ...(changes && {
          'Idempotency-Key': Type.String({ description: "The request's Idempotency-Key." }),
          'Idempotent-Replayed': Type.String({ enum: ['true'], description: 'Present when this is the recorded answer of an earlier call with the same Idempotency-Key, replayed byte for byte.' }),
        }),
      },
      content: { 'application/json': { schema: op.result } },
    },
    ...Object.fromEntries(Object.entries(errors).map(([status, description]) => [status, acpErrorResponse(description)])),
  };
}
