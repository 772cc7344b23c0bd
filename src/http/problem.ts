/**
 * A failure the client caused or should know about. Route code throws these; the
 * error handler renders them in the envelope of the surface the request hit.
 */
export class HttpProblem extends Error {
  constructor(
    readonly statusCode: number,
    /** Catalog: a `PublicApiError` code. Sandbox: a `SandboxError.error` string. */
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
