import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { applyProblemHeaders, HttpProblem, internalProblem, MalformedRequest } from './problem.js';

/** What a surface's error bodies are made from: a request, or before routing only its id. */
interface Exchange {
  id: string;
  body?: unknown;
}

/**
 * How one surface (the catalog, the sandbox, the MCP endpoints) answers failures: its
 * envelope and its codes. Each feature defines its own and installs it in its own
 * context with {@link useErrorSurface}; this module knows none of them.
 */
export interface ErrorSurface {
  /** `problem` in this surface's envelope. */
  body(problem: HttpProblem, exchange: Exchange): object;
  /** The code of a malformed request: Fastify's own 4xx (bad JSON, body too large) and a {@link MalformedRequest}. */
  invalidRequestCode: string;
  /** The code of an unknown route under the surface's prefix. */
  notFoundCode: string;
  /** The code of an unexpected failure (500). */
  internalErrorCode: string;
  /** A failure the surface answers in its own way rather than as a 500 or a generic 4xx, e.g. an unreachable store. */
  recognise?(error: unknown): HttpProblem | undefined;
  /** Headers on every answer of the surface, errors and unknown routes included. */
  headers?: Readonly<Record<string, string>>;
  /** Headers on its error answers only (e.g. keeping caches from storing a 429 meant for one client). */
  errorHeaders?: Readonly<Record<string, string>>;
  /** The answer to a path the router cannot read (bad percent-encoding, a parameter too long); a generic 400 by default. */
  malformedPath?(url: string): HttpProblem;
  /** Where the surface's routes are documented, for hints; `/openapi.json` by default. */
  document?: string;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Which surface answers a URL before routing has found its context. */
    errorSurfaces: ErrorSurfaces;
  }
}

/**
 * The surfaces by URL prefix, for the failures Fastify and Node raise before a route's
 * context is known (a malformed path, an unparsable request); everything else is
 * answered by the error handler of the context the request reached.
 */
class ErrorSurfaces {
  readonly #byPrefix: { prefix: string; surface: ErrorSurface }[] = [];

  constructor(
    /** The envelope of every URL that no surface claims, and of requests refused before their URL is read. */
    readonly fallback: ErrorSurface,
  ) {}

  add(prefix: string, surface: ErrorSurface): void {
    this.#byPrefix.push({ prefix, surface });
    this.#byPrefix.sort((a, b) => b.prefix.length - a.prefix.length);
  }

  forUrl(url: string): ErrorSurface {
    return this.#byPrefix.find(({ prefix }) => isUnder(url, prefix))?.surface ?? this.fallback;
  }
}

/** `/sandbox`, `/sandbox/...` and `/sandbox?...` are under `/sandbox`; `/sandboxes` is not. */
function isUnder(url: string, prefix: string): boolean {
  const next = url.charAt(prefix.length);
  return url.startsWith(prefix) && (next === '' || next === '/' || next === '?');
}

/** Installs `fallback` on the root context, for every URL no feature claims. */
export const errorSurfaces = fp<{ fallback: ErrorSurface }>(
  async (app, { fallback }) => {
    app.decorate('errorSurfaces', new ErrorSurfaces(fallback));
    useErrorSurface(app, fallback);
  },
  { name: 'error-surfaces' },
);

/**
 * Makes `scope`, an encapsulated context (normally with a URL prefix), answer its errors
 * and unknown routes in `surface`'s envelope. Unexpected errors are logged with their
 * stack and answered without it.
 */
export function useErrorSurface(scope: FastifyInstance, surface: ErrorSurface): void {
  if (scope.prefix !== '') scope.errorSurfaces.add(scope.prefix, surface);
  scope.setErrorHandler(async (error: FastifyError | HttpProblem, request, reply) => {
    const problem = toProblem(error, surface);
    if (problem.statusCode >= 500) request.log.error({ err: error }, 'request failed');
    return sendProblem(surface, request, reply, problem);
  });
  scope.setNotFoundHandler(async (request, reply) =>
    sendProblem(
      surface,
      request,
      reply,
      new HttpProblem(404, surface.notFoundCode, `No route ${request.method} ${request.url.split('?')[0]}.`, {
        hint: `See ${surface.document ?? '/openapi.json'} for the routes this service offers.`,
      }),
    ),
  );
  const { headers } = surface;
  if (headers) scope.addHook('onSend', async (_request, reply) => void reply.headers(headers));
}

/**
 * Errors Fastify raises while routing (a malformed percent-encoding, a path parameter
 * longer than `maxParamLength`) skip the hooks and the error handlers, so they would
 * otherwise go out as Fastify's own body without a request id; what the hooks add to
 * every answer is added here.
 */
export function frameworkErrorHandler(_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const surface = request.server.errorSurfaces.forUrl(request.url);
  reply.header('x-request-id', request.id);
  if (surface.headers) reply.headers(surface.headers);
  const problem =
    surface.malformedPath?.(request.url) ??
    new HttpProblem(400, surface.invalidRequestCode, 'The request path is malformed or too long.', {
      hint: 'Percent-encode the path correctly.',
    });
  void sendProblem(surface, request, reply, problem);
}

function sendProblem(surface: ErrorSurface, request: FastifyRequest, reply: FastifyReply, problem: HttpProblem): FastifyReply {
  applyProblemHeaders(reply, problem.details);
  if (surface.errorHeaders) reply.headers(surface.errorHeaders);
  return reply.code(problem.statusCode).type('application/json; charset=utf-8').send(surface.body(problem, request));
}

/**
 * Problems keep their code, a {@link MalformedRequest} gets the surface's; Fastify's own
 * 4xx errors (bad JSON, body too large, wrong media type) keep their status; anything else
 * the surface does not recognise is its internal error.
 */
function toProblem(error: FastifyError | HttpProblem, surface: ErrorSurface): HttpProblem {
  if (error instanceof MalformedRequest) {
    return new HttpProblem(error.statusCode, surface.invalidRequestCode, error.message, error.details);
  }
  if (error instanceof HttpProblem) return error;
  const recognised = surface.recognise?.(error);
  if (recognised) return recognised;
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return new HttpProblem(status, surface.invalidRequestCode, error.message, { hint: `Check the request against ${surface.document ?? '/openapi.json'}.` });
  }
  return internalProblem(surface.internalErrorCode);
}
