import { sandboxErrorBody } from './errors.js';
import { HttpProblem } from '../http/problem.js';
import type { RecordedResponse } from './idempotency.js';

/**
 * A sandbox service call as the response the idempotency store records: its result
 * under `successStatus`, or a business error (a 4xx HttpProblem) as its SandboxError
 * body and headers, so a retry gets the same error. Anything else is thrown: it is not
 * recorded, and the Idempotency-Key stays free for a retry. REST routes and MCP tools
 * both go through this.
 */
export async function recordCall(successStatus: number, call: () => Promise<object>): Promise<RecordedResponse> {
  try {
    return { statusCode: successStatus, body: JSON.stringify(await call()), headers: {} };
  } catch (error) {
    if (!(error instanceof HttpProblem) || error.statusCode >= 500) throw error;
    return { statusCode: error.statusCode, body: JSON.stringify(sandboxErrorBody(error)), headers: error.details.headers ?? {} };
  }
}
