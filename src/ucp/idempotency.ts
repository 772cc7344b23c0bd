import { Type } from 'typebox';
import { UUID_PATTERN } from '../http/request-id.js';
import { IDEMPOTENCY_RETENTION_HOURS, type IdempotencyWording } from '../sandbox/idempotency.js';
import type { SandboxServices } from '../sandbox/services.js';
import type { UcpAnswer } from './envelope.js';
import { protocolErrorBody, UcpProtocolError } from './errors.js';

/**
 * Idempotency keys of the UCP bindings (docs/ucp.md, Idempotency and request ids), on the
 * sandbox's store (src/sandbox/idempotency.ts): REST's `Idempotency-Key` header and MCP's
 * `meta["idempotency-key"]` are one key, scoped to the sandbox key and the operation.
 */

/** A REST answer that is the recorded answer of an earlier call carries `Idempotent-Replayed: true`, as the sandbox's do. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/** The code of a key reused with other input: the release names the status (409), not the code. */
export const IDEMPOTENCY_CONFLICT = 'idempotency_conflict';

/** The store's `method` column of every UCP record: REST and MCP calls of an operation share their records. */
const UCP_SCOPE_METHOD = 'UCP';

/** A UUID, the format the release gives idempotency keys and request ids (rest.openapi.json, mcp.openrpc.json). */
export const uuidSchema = (description: string) => Type.String({ format: 'uuid', pattern: UUID_PATTERN, description });

/** The rules, for the REST header's and the MCP metadata's descriptions. */
export const IDEMPOTENCY_RULES = `A UUID that makes the call safe to retry. It is scoped to the sandbox key and the operation, over REST and MCP alike; the first answer (a business outcome or a refusal included) is kept ${IDEMPOTENCY_RETENTION_HOURS} h and returned again for the same key, resource id and payload, without running the operation again; the same key with another resource id or payload is 409 ${IDEMPOTENCY_CONFLICT} (MCP -32000); concurrent duplicates run once. Invalid requests (400) and unexpected failures are not kept, so the key can be sent again.`;

/** What a call under an idempotency key is: whose, which operation, on what input. */
export interface UcpIdempotentCall {
  /** The admitted sandbox key's id (per client IP for the shared public key). */
  keyId: string;
  idempotencyKey: string;
  /** The operation's name: the same for its REST route and its MCP tool. */
  operation: string;
  /** The resource id and the payload, compared between calls; the request's metadata and headers are not. */
  input: { id?: string; payload: unknown };
}

/**
 * Runs `run` at most once for the call's scope and input, and answers as the first call
 * did: its answer (`statusOf` its REST status), or the protocol error it refused with,
 * thrown again. A run that throws a 400 or an unexpected failure is not recorded.
 */
export async function runOnce(
  sandbox: SandboxServices,
  call: UcpIdempotentCall,
  run: () => Promise<Record<string, unknown>>,
  statusOf: (body: Record<string, unknown>) => number,
): Promise<UcpAnswer> {
  const outcome = await sandbox.runIdempotently({
    scope: { keyId: call.keyId, idempotencyKey: call.idempotencyKey, method: UCP_SCOPE_METHOD, path: call.operation },
    input: call.input,
    wording: wording(call.operation),
    successStatus: (body) => statusOf(body as Record<string, unknown>),
    run,
  });
  const headers = outcome.replayed ? { ...outcome.headers, [REPLAYED_HEADER]: 'true' } : outcome.headers;
  if (outcome.statusCode >= 400) throw recordedRefusal(outcome.statusCode, outcome.body as ReturnType<typeof protocolErrorBody>, headers);
  return { statusCode: outcome.statusCode, body: outcome.body as Record<string, unknown>, ...(outcome.replayed && { replayed: outcome.json }) };
}

function wording(operation: string): IdempotencyWording {
  return {
    mismatch: () =>
      new UcpProtocolError(
        409,
        IDEMPOTENCY_CONFLICT,
        `This idempotency key was already used for ${operation} with another resource id or payload; send a new key for a new call.`,
      ),
    errorBody: protocolErrorBody,
  };
}

/**
 * A recorded refusal as a protocol error again, the first time as on a replay: REST
 * renders the same `{ code, content }` and headers, MCP the JSON-RPC error of its status.
 */
function recordedRefusal(statusCode: number, body: ReturnType<typeof protocolErrorBody>, headers: Record<string, string>): UcpProtocolError {
  return new UcpProtocolError(statusCode, body.code, body.content, { ...(body.continue_url !== undefined && { continueUrl: body.continue_url }), headers });
}
