import type { FastifyReply } from 'fastify';

/**
 * A failure the client caused or should know about. Route code throws these; the error
 * handler of the surface the request hit renders them in that surface's envelope.
 */
export class HttpProblem extends Error {
  constructor(
    readonly statusCode: number,
    /** The surface's error code: a `PublicApiError` code, a `SandboxError.error` string... */
    readonly code: string,
    message: string,
    readonly details: ProblemDetails = {},
  ) {
    super(message);
    this.name = 'HttpProblem';
  }
}

export interface ProblemDetails {
  /** Catalog errors: what the client can do about it. */
  hint?: string;
  /** Sandbox errors: the scope the key lacks. */
  scope?: string;
  /** Seconds until a retry may succeed; also sent as `Retry-After`. */
  retryAfter?: number;
  headers?: Record<string, string>;
}

/**
 * A malformed request found by a mechanism shared by every surface (a repeated header,
 * an unsupported body coding), which cannot know the surface's codes: the error handler
 * of the surface the request hit answers it with its own invalid-request code.
 */
export class MalformedRequest extends HttpProblem {
  constructor(statusCode: number, message: string, details: ProblemDetails = {}) {
    super(statusCode, 'malformed_request', message, details);
    this.name = 'MalformedRequest';
  }
}

/** An unexpected failure as clients see it: no message, stack or SQL of the cause. */
export function internalProblem(code: string): HttpProblem {
  return new HttpProblem(500, code, 'A temporary failure occurred.', {
    hint: 'Retry shortly; if it persists, report the request_id.',
  });
}

/** The headers a problem asks for (Retry-After, Allow, ...), whatever the body's envelope. */
export function applyProblemHeaders(reply: FastifyReply, { retryAfter, headers }: ProblemDetails): void {
  if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
  if (headers) reply.headers(headers);
}
