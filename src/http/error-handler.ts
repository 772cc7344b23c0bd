import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { sandboxErrorBody, sandboxUnavailable } from '../sandbox/errors.js';
import { isStoreUnavailable } from '../store/store-unavailable.js';
import { HttpProblem } from './problem.js';

/**
 * One place turns every failure into the envelope of the surface it happened on:
 * `SandboxError` under `/sandbox/`, `PublicApiError` everywhere else. Unexpected
 * errors are logged with their stack and answered without it.
 */
export const errorHandler = fp(
  async (app) => {
    app.setErrorHandler(async (error: FastifyError | HttpProblem, request, reply) => {
      const problem = error instanceof HttpProblem ? error : toProblem(error, request);
      if (problem.statusCode >= 500) request.log.error({ err: error }, 'request failed');
      return sendProblem(request, reply, problem);
    });

    app.addHook('onSend', async (request, reply) => forbidCachingOfSandbox(request, reply));

    app.setNotFoundHandler(async (request, reply) =>
      sendProblem(
        request,
        reply,
        new HttpProblem(404, isSandbox(request) ? 'sandbox_not_found' : 'INVALID_QUERY', `No route ${request.method} ${request.url.split('?')[0]}.`, {
          hint: 'See /openapi.json for the routes this service offers.',
        }),
      ),
    );
  },
  { name: 'error-handler' },
);

/**
 * Errors Fastify raises while routing (a malformed percent-encoding, a path parameter
 * longer than `maxParamLength`) skip the hooks and the error handler, so they would
 * otherwise go out as Fastify's own body without a request id; what the hooks add to
 * every answer is added here. Anything in the product path that is not a handle is
 * INVALID_HANDLE.
 */
export function frameworkErrorHandler(_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  reply.header('x-request-id', request.id);
  forbidCachingOfSandbox(request, reply);
  const code = request.url.startsWith('/public/v1/products/') ? 'INVALID_HANDLE' : invalidRequestCode(request);
  void sendProblem(
    request,
    reply,
    new HttpProblem(400, code, 'The request path is malformed or too long.', {
      hint: 'Percent-encode the path correctly; handles are 1 to 200 lowercase letters, digits and single hyphens.',
    }),
  );
}

/** The headers a problem asks for (Retry-After, Allow, ...), whatever the body's envelope. */
export function applyProblemHeaders(reply: FastifyReply, { retryAfter, headers }: HttpProblem['details']): void {
  if (retryAfter !== undefined) reply.header('retry-after', retryAfter);
  if (headers) reply.headers(headers);
}

export function sendProblem(request: FastifyRequest, reply: FastifyReply, problem: HttpProblem): FastifyReply {
  applyProblemHeaders(reply, problem.details);
  return reply.code(problem.statusCode).type('application/json; charset=utf-8').send(problemBody(request, problem));
}

export function problemBody(request: FastifyRequest, problem: HttpProblem): object {
  return isSandbox(request) ? sandboxErrorBody(problem) : catalogErrorBody(problem, request.id);
}

/** The contract's `PublicApiError` body. */
export function catalogErrorBody(problem: HttpProblem, requestId: string): object {
  return { error: { code: problem.code, message: problem.message, hint: problem.details.hint ?? '' }, request_id: requestId };
}

/**
 * Sandbox answers hold shipping addresses and keys, so no cache may keep any of them:
 * successes, errors, unknown routes and rate-limit answers alike.
 */
function forbidCachingOfSandbox(request: FastifyRequest, reply: FastifyReply): void {
  if (isSandbox(request)) reply.header('cache-control', 'no-store');
}

/** The code of a malformed request on the surface it hit. */
export function invalidRequestCode(request: FastifyRequest): string {
  return isSandbox(request) ? 'sandbox_invalid_request' : 'INVALID_QUERY';
}

function isSandbox(request: FastifyRequest): boolean {
  return request.url.startsWith('/sandbox/') || request.url === '/sandbox' || request.url.startsWith('/sandbox?');
}

/**
 * Fastify's own 4xx errors (bad JSON, body too large, wrong media type) keep their status.
 * An unreachable store is 503 with Retry-After on the sandbox, the only surface that
 * reads the store per request; anywhere else an unexpected failure is a 500
 * INTERNAL_ERROR, the catalog's code for a temporary failure.
 */
function toProblem(error: FastifyError, request: FastifyRequest): HttpProblem {
  const status = error.statusCode ?? 500;
  const sandbox = isSandbox(request);
  if (status >= 400 && status < 500) {
    return new HttpProblem(status, invalidRequestCode(request), error.message, {
      hint: 'Check the request against /openapi.json.',
    });
  }
  if (sandbox && isStoreUnavailable(error)) return sandboxUnavailable();
  return internalProblem(sandbox ? 'sandbox_internal_error' : 'INTERNAL_ERROR');
}

/** An unexpected failure as clients see it: no message, stack or SQL of the cause. */
export function internalProblem(code: string): HttpProblem {
  return new HttpProblem(500, code, 'A temporary failure occurred.', {
    hint: 'Retry shortly; if it persists, report the request_id.',
  });
}
