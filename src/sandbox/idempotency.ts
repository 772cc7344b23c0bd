import { createHash, randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpProblem } from '../http/problem.js';
import type { Db } from '../store/database.js';
import { HOUR_MS, later, type Clock } from './clock.js';
import { SimulatedFailure } from './scenarios.js';

/** An Idempotency-Key is scoped to the caller, the method and the route. */
export interface IdempotencyScope {
  /** The principal's key id (per client IP for the shared public key). */
  keyId: string;
  idempotencyKey: string;
  method: string;
  /** The matched route with its parameters filled in; MCP tools use a name of their own here. */
  path: string;
}

/** How a surface words what the store answers besides results: the sandbox's SandboxError, UCP's protocol errors. */
export interface IdempotencyWording {
  /** The refusal of the same scope with other input: each surface names the key as its clients send it. */
  mismatch(): HttpProblem;
  /** The body a business error is recorded and answered with, in the surface's envelope. */
  errorBody(problem: HttpProblem): object;
}

/** One call made at most once per scope and input, by a REST route or an MCP tool. */
export interface IdempotentCall {
  scope: IdempotencyScope;
  /** The request body or tool arguments: the same scope with other input is a mismatch. */
  input: unknown;
  wording: IdempotencyWording;
  /** The status of a result: the route's, or one the result decides (a UCP create answers a business outcome with 200). */
  successStatus: number | ((result: object) => number);
  /** The service call: its result, or a business error (a 4xx HttpProblem) that is recorded like a result. */
  run(): Promise<object>;
}

/** What the call answered, the first time or recorded. */
export interface IdempotentOutcome {
  statusCode: number;
  /** The call's result, or the body (`wording.errorBody`) of the business error it ended with. */
  body: object;
  /** `body` as recorded: REST sends these bytes, so a replay is the first answer byte for byte. */
  json: string;
  /** The headers of a recorded business error (WWW-Authenticate of a 401...). */
  headers: Record<string, string>;
  /** True when this is the recorded answer of an earlier call. */
  replayed: boolean;
}

type Answer = Omit<IdempotentOutcome, 'replayed'>;

export const IDEMPOTENCY_RETENTION_HOURS = 24;
const IDEMPOTENCY_RETENTION_MS = IDEMPOTENCY_RETENTION_HOURS * HOUR_MS;
/** A claim without a response after this long belongs to a request that died; a duplicate takes it over. */
const ABANDONED_AFTER_MS = 10_000;
const POLL_MS = 15;

/**
 * Runs `call` at most once per scope and input (docs/decisions.md, Idempotency). The
 * first call claims the scope with an INSERT that only one writer can win (the table's
 * primary key, so this holds across processes and instances); concurrent duplicates wait
 * for its answer and replay it. The same scope with other input is `wording.mismatch()`
 * (the sandbox's 422 `sandbox_idempotency_mismatch`, UCP's 409). A 400 is not recorded
 * and an unexpected failure is thrown, so the client can fix the request or retry it
 * under the same key.
 */
export async function runIdempotently(deps: { db: Db; clock: Clock }, call: IdempotentCall): Promise<IdempotentOutcome> {
  const { db, clock } = deps;
  const { scope } = call;
  const requestHash = fingerprint(call.input);
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
    if (claimed) return { ...(await answerAndRecord(db, call, claimId)), replayed: false };

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
    if (existing.request_hash !== requestHash) throw call.wording.mismatch();
    if (existing.status_code !== null) {
      // The body is recorded together with the status.
      const json = existing.response_body!;
      return {
        statusCode: Number(existing.status_code),
        body: JSON.parse(json) as object,
        json,
        headers: JSON.parse(existing.response_headers ?? '{}') as Record<string, string>,
        replayed: true,
      };
    }
    await sleep(POLL_MS);
  }
}

async function answerAndRecord(db: Db, call: IdempotentCall, claimId: string): Promise<Answer> {
  let answer: Answer;
  try {
    answer = await answerOf(call);
  } catch (error) {
    await release(db, call.scope, claimId);
    throw error;
  }
  if (answer.statusCode === 400) {
    await release(db, call.scope, claimId);
    return answer;
  }
  await db
    .updateTable('sandbox_idempotency')
    .set({ status_code: answer.statusCode, response_body: answer.json, response_headers: JSON.stringify(answer.headers) })
    .where((eb) => eb.and(scopeColumns(call.scope)))
    .where('claim_id', '=', claimId)
    .execute();
  return answer;
}

/**
 * The call's result under its success status, or a business error (a 4xx HttpProblem)
 * as the surface's error body and its headers, so a retry gets the same error. Anything
 * else is thrown: it is not recorded, and the key stays free for a retry. So is a
 * scenario's failure, which answers this one request only (docs/decisions.md, Scenarios).
 */
async function answerOf(call: IdempotentCall): Promise<Answer> {
  try {
    const body = await call.run();
    const statusCode = typeof call.successStatus === 'number' ? call.successStatus : call.successStatus(body);
    return { statusCode, body, json: JSON.stringify(body), headers: {} };
  } catch (error) {
    if (!(error instanceof HttpProblem) || error.statusCode >= 500 || error instanceof SimulatedFailure) throw error;
    const body = call.wording.errorBody(error);
    return { statusCode: error.statusCode, body, json: JSON.stringify(body), headers: error.details.headers ?? {} };
  }
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
