import type { FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { admitKeyWithScope } from '../sandbox/admission.js';
import type { AcpConfig } from '../config.js';
import type { Clock } from '../sandbox/clock.js';
import type { IdempotencyWording, IdempotentOutcome } from '../sandbox/idempotency.js';
import type { SandboxServices } from '../sandbox/services.js';
import { ACP_PATHS } from './endpoints.js';
import { AcpProblem, acpErrorBody } from './errors.js';
import type { AcpInput, AcpOperation } from './operation.js';
import { checkSignature, type SignatureFailure } from './signatures.js';
import { ACP_VERSION } from './version.js';

/*
 * What the two bindings of an operation share (docs/acp.md, Adding an operation): the
 * REST binding (rest.ts) reads these from headers and the path, the MCP binding
 * (mcp/acp-tools.ts) from a tool's `meta` and `id`; both check and run an operation here.
 */

/** The one parameter a release path may have, named as the release names it: `{checkout_session_id}`, a cart's `{id}`. */
const PATH_PARAMETER = /\{(\w+)\}/;

/** The name of the path's parameter, when it has one. */
export function pathParameter(path: string): string | undefined {
  return PATH_PARAMETER.exec(path)?.[1];
}

/** The path with `value` in place of its parameter (a function replacer: `$` in an id is no pattern). */
export function fillPath(path: string, value: string): string {
  return path.replace(PATH_PARAMETER, () => value);
}

/** The id the path names (a checkout session's, a cart's), as the REST path and the MCP `id` argument take it. */
export const PathId = Type.String({ minLength: 1, maxLength: 255, description: 'The id its creation answered.' });

/** POST, PUT and DELETE change something: each takes an idempotency key (required on REST) and runs once per key. */
export function changesState(method: string): boolean {
  return method === 'POST' || method === 'PUT' || method === 'DELETE';
}

/** The request's protocol version is the one served, else 400 missing_api_version or unsupported_api_version. */
export function requireServedVersion(version: unknown, sendIt: string): void {
  if (version === undefined) throw new AcpProblem(400, 'missing_api_version', `${sendIt}: this service speaks ACP ${ACP_VERSION}.`);
  if (version !== ACP_VERSION) throw new AcpProblem(400, 'unsupported_api_version', `API version ${String(version)} is not served: this service speaks ACP ${ACP_VERSION} only.`);
}

const SIGNATURE_FAILURES: Record<SignatureFailure, string> = {
  signature_required: 'This deployment verifies request signatures: send a signature and its timestamp.',
  timestamp_invalid: 'The timestamp must be an RFC 3339 date-time.',
  timestamp_out_of_window: "The timestamp is too far from the server's clock: sign the request again now.",
  signature_invalid: 'The signature does not match the request: sign `<timestamp>.<body>` with the shared secret (HMAC-SHA256, base64url; docs/acp.md, Request signatures).',
};

/** The deployment's signature check (docs/acp.md, Request signatures). */
export interface AcpSigning {
  secret: string;
  toleranceSeconds: number;
  clock: Clock;
}

/** The deployment's check, when it sets ACP_SIGNING_SECRET; else none. */
export function acpSigning({ signingSecret, signatureToleranceSeconds }: AcpConfig, clock: Clock): AcpSigning | undefined {
  return signingSecret === undefined ? undefined : { secret: signingSecret, toleranceSeconds: signatureToleranceSeconds, clock };
}

/** A signature over `signed` (the REST body as sent, the MCP payload made canonical) holds, else 401 naming why. */
export function verifySignature({ secret, toleranceSeconds, clock }: AcpSigning, given: { signature: unknown; timestamp: unknown }, signed: string | undefined): void {
  const failure = checkSignature({ secret, toleranceSeconds }, given, signed, clock());
  if (failure !== undefined) throw new AcpProblem(401, failure, SIGNATURE_FAILURES[failure], undefined, { headers: { 'www-authenticate': 'Signature' } });
}

/** The idempotency store's answers in ACP's words (rfc.agentic_checkout.md, Idempotency: 422 idempotency_conflict). */
const IDEMPOTENCY_WORDING: IdempotencyWording = {
  mismatch: () => new AcpProblem(422, 'idempotency_conflict', 'This idempotency key was already used on this operation and session with another request body: send a new key for a new request.'),
  errorBody: acpErrorBody,
};

/** The HTTP exchange an operation runs on (the REST request, or the MCP request of a tool call), and its idempotency key. */
interface AcpExchange {
  request: FastifyRequest;
  reply: FastifyReply;
  /** POSTs, PUTs and DELETEs only: REST's Idempotency-Key header, MCP's `meta.idempotency_key`. */
  idempotencyKey?: string;
}

/**
 * Runs `op` as both bindings do: behind the sandbox's availability gate, the bearer
 * admitted with the operation's scope (and counted against its cart limit); a POST or
 * PUT with an idempotency key runs at most once per key, sandbox key, path and body,
 * over REST and MCP alike (the same scope: the release's REST path with the id filled
 * in), and answers as its first call did: its answer or the business error it ended
 * with (`statusCode` 4xx, the body already the release's Error). A refusal of a call
 * without a key, and a 400 of any, is thrown.
 */
export async function runAcpOperation(op: AcpOperation<any>, input: AcpInput<unknown>, exchange: AcpExchange, sandbox: SandboxServices): Promise<IdempotentOutcome> {
  const { request, reply, idempotencyKey } = exchange;
  return sandbox.whenAvailable(async () => {
    const principal = await admitKeyWithScope(sandbox, request, reply, op.scope);
    const run = () => op.run(input, { principal, request });
    if (op.method === 'GET' || idempotencyKey === undefined) {
      const body = await run();
      return { statusCode: op.successStatus, body, json: JSON.stringify(body), headers: {}, replayed: false };
    }
    const path = `${ACP_PATHS.prefix}${fillPath(op.path, encodeURIComponent(input.id ?? ''))}`;
    return sandbox.runIdempotently({
      scope: { keyId: principal.keyId, idempotencyKey, method: op.method, path },
      input: input.body,
      wording: IDEMPOTENCY_WORDING,
      successStatus: op.successStatus,
      run,
    });
  });
}
