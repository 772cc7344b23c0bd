import { Type } from 'typebox';
import type { ErrorSurface } from '../http/error-surface.js';
import { HttpProblem, type ProblemDetails } from '../http/problem.js';
import { isStoreUnavailable } from '../store/store-unavailable.js';

/** A failure in ACP's words: its code (snake_case) and, when it is about one, the request field (`param`). */
export class AcpProblem extends HttpProblem {
  constructor(
    statusCode: number,
    code: string,
    message: string,
    readonly param?: string,
    details: ProblemDetails = {},
  ) {
    super(statusCode, code, message, details);
    this.name = 'AcpProblem';
  }
}

/** The error types the release defines: what the client sent, a failure here, or a passing unavailability. */
function errorType(statusCode: number): 'invalid_request' | 'processing_error' | 'service_unavailable' {
  if (statusCode === 503) return 'service_unavailable';
  return statusCode >= 500 ? 'processing_error' : 'invalid_request';
}

/** ACP's flat error object: other surfaces' codes lower-cased (RATE_LIMITED is `rate_limited`). */
export function acpErrorBody(problem: HttpProblem): { type: string; code: string; message: string; param?: string } {
  const param = problem instanceof AcpProblem ? problem.param : undefined;
  return { type: errorType(problem.statusCode), code: problem.code.toLowerCase(), message: problem.message, ...(param !== undefined && { param }) };
}

/** The error object, for the document (the release's `Error` schemas are the authority). */
export const AcpErrorSchema = Type.Object(
  {
    type: Type.String({ description: 'invalid_request, processing_error or service_unavailable.' }),
    code: Type.String({ description: 'What went wrong, for programs: feed_not_found, invalid_request, rate_limited...' }),
    message: Type.String({ description: 'What went wrong, for people.' }),
    param: Type.Optional(Type.String({ description: 'The request field the error is about.' })),
  },
  { title: 'AcpError' },
);

/** A documented error answer. */
export const acpErrorResponse = (description: string) => ({ description, content: { 'application/json': { schema: AcpErrorSchema } } });

/** How long a client is asked to wait while the store is unreachable. */
const STORE_RETRY_AFTER_SECONDS = 5;

/** The envelope of every URL under `/acp`: the release's flat error object. No cache keeps an error. */
export const acpErrors: ErrorSurface = {
  body: (problem) => acpErrorBody(problem),
  invalidRequestCode: 'invalid_request',
  notFoundCode: 'not_found',
  internalErrorCode: 'processing_error',
  recognise: (error) =>
    isStoreUnavailable(error) ? new AcpProblem(503, 'unavailable', 'The store is unreachable; retry shortly.', undefined, { retryAfter: STORE_RETRY_AFTER_SECONDS }) : undefined,
  errorHeaders: { 'cache-control': 'no-store' },
};
