import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Db } from '../store/database.js';
import { HOUR_MS, later, type Clock } from './clock.js';
import { idempotencyMismatch } from './errors.js';

/** An Idempotency-Key is scoped to the caller, the method and the route. */
export interface IdempotencyScope {
  /** The principal's key id (per client IP for the shared public key). */
  keyId: string;
  idempotencyKey: string;
  method: string;
  /** The matched route with its parameters filled in; MCP tools use a name of their own here. */
  path: string;
}

/** A response as it is stored and replayed: the exact bytes of the body. */
export interface RecordedResponse {
  statusCode: number;
  body: string;
  headers: Record<string, string>;
}

export interface IdempotentOutcome extends RecordedResponse {
  /** True when this is a stored response of an earlier request. */
  replayed: boolean;
}

export const IDEMPOTENCY_RETENTION_MS = 24 * HOUR_MS;
/** A claim without a response after this long belongs to a request that died; a duplicate takes it over. */
const ABANDONED_AFTER_MS = 10_000;
const POLL_MS = 15;

/**
 * Runs `execute` at most once per scope and request body. The first request claims the
 * scope with an INSERT that only one writer can win (the table's primary key, so this
 * holds across processes and instances); concurrent duplicates wait for its response
 * and replay it. The same scope with another body is 422 `sandbox_idempotency_mismatch`.
 * A 400 or 5xx response is not stored, so the client can fix the request or retry it
 * under the same key.
 */
export async function runIdempotently(
  deps: { db: Db; clock: Clock },
  scope: IdempotencyScope,
  requestBody: unknown,
  execute: () => Promise<RecordedResponse>,
): Promise<IdempotentOutcome> {
  const { db, clock } = deps;
  const requestHash = fingerprint(requestBody);
  const waitingSince = Date.now();
  for (;;) {
    const now = clock();
    const claimId = randomUUID();
    const claimed = await db
      .insertInto('sandbox_idempotency')
      .values({
        key_id: scope.keyId,
        idempotency_key: scope.idempotencyKey,
        method: scope.method,
        path: scope.path,
        request_hash: requestHash,
        claim_id: claimId,
        status_code: null,
        response_body: null,
        response_headers: null,
        created_at: now.toISOString(),
        expires_at: later(now, IDEMPOTENCY_RETENTION_MS).toISOString(),
      })
      .onConflict((conflict) => conflict.columns(['key_id', 'idempotency_key', 'method', 'path']).doNothing())
      .returning('key_id')
      .executeTakeFirst();
    if (claimed) return { ...(await executeAndRecord(db, scope, claimId, execute)), replayed: false };

    const existing = await db
      .selectFrom('sandbox_idempotency')
      .selectAll()
      .where((eb) => eb.and(scopeColumns(scope)))
      .executeTakeFirst();
    if (!existing) continue;
    // An expired record is no longer stored, and a claim that never completed belongs to a dead request.
    const expired = new Date(existing.expires_at) <= now;
    const abandoned =
      existing.status_code === null &&
      (now.getTime() - Date.parse(existing.created_at) > ABANDONED_AFTER_MS || Date.now() - waitingSince > ABANDONED_AFTER_MS);
    if (expired || abandoned) {
      await release(db, scope, existing.claim_id);
      continue;
    }
    if (existing.request_hash !== requestHash) throw idempotencyMismatch();
    if (existing.status_code !== null) {
      return {
        statusCode: Number(existing.status_code),
        body: existing.response_body ?? '',
        headers: JSON.parse(existing.response_headers ?? '{}') as Record<string, string>,
        replayed: true,
      };
    }
    await sleep(POLL_MS);
  }
}

async function executeAndRecord(
  db: Db,
  scope: IdempotencyScope,
  claimId: string,
  execute: () => Promise<RecordedResponse>,
): Promise<RecordedResponse> {
  let response: RecordedResponse;
  try {
    response = await execute();
  } catch (error) {
    await release(db, scope, claimId);
    throw error;
  }
  if (response.statusCode === 400 || response.statusCode >= 500) {
    await release(db, scope, claimId);
    return response;
  }
  await db
    .updateTable('sandbox_idempotency')
    .set({ status_code: response.statusCode, response_body: response.body, response_headers: JSON.stringify(response.headers) })
    .where((eb) => eb.and(scopeColumns(scope)))
    .where('claim_id', '=', claimId)
    .execute();
  return response;
}

/** Frees one claim: a claim taken over by a successor is left alone. */
async function release(db: Db, scope: IdempotencyScope, claimId: string): Promise<void> {
  await db
    .deleteFrom('sandbox_idempotency')
    .where((eb) => eb.and(scopeColumns(scope)))
    .where('claim_id', '=', claimId)
    .execute();
}

function scopeColumns(scope: IdempotencyScope) {
  return { key_id: scope.keyId, idempotency_key: scope.idempotencyKey, method: scope.method, path: scope.path };
}

/** Same body, same fingerprint, whatever the order of its keys. */
export function fingerprint(body: unknown): string {
  return createHash('sha256').update(JSON.stringify(canonical(body ?? {}))).digest('hex');
}

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value)
        .sort()
        .map((key) => [key, canonical((value as Record<string, unknown>)[key])]),
    );
  }
  return value;
}
