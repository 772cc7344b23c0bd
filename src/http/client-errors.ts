import { randomUUID } from 'node:crypto';
import { maxHeaderSize, STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { HttpProblem } from './problem.js';

/** Node's names for the failures it detects before a request reaches routing. */
const REQUEST_TIMEOUT = 'ERR_HTTP_REQUEST_TIMEOUT';
const HEADER_OVERFLOW = 'HPE_HEADER_OVERFLOW';

/**
 * Answers what Node's HTTP parser rejects before routing (a malformed request line,
 * headers too large, both Content-Length and Transfer-Encoding, a request that took too
 * long to arrive) in the same error shape as every other failure, with a request id,
 * then closes the connection: after a parse error nothing more can be read from it.
 * The surface is unknown at this point (the path may never have been read), so the
 * body is in the envelope of URLs no surface claims. Raw packets may hold credentials: only the error
 * code is logged.
 */
export function clientErrorHandler(this: FastifyInstance, error: Error & { code?: string }, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const requestId = randomUUID();
  const surface = this.errorSurfaces.fallback;
  const problem = problemFor(error.code, surface.invalidRequestCode);
  this.log.info({ code: error.code, request_id: requestId, status: problem.statusCode }, 'request refused before routing');
  if (socket.writable && !responseStarted(socket)) {
    const body = JSON.stringify(surface.body(problem, { id: requestId }));
    socket.write(
      `HTTP/1.1 ${problem.statusCode} ${STATUS_CODES[problem.statusCode]}\r\n` +
        'Content-Type: application/json; charset=utf-8\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        'Connection: close\r\n\r\n' +
        body,
    );
  }
  socket.destroy();
}

function problemFor(code: string | undefined, invalidRequestCode: string): HttpProblem {
  if (code === REQUEST_TIMEOUT) {
    return new HttpProblem(408, invalidRequestCode, 'The request did not arrive in time.', {
      hint: 'Send the whole request (headers and body) at once.',
    });
  }
  if (code === HEADER_OVERFLOW) {
    return new HttpProblem(431, invalidRequestCode, 'The request headers are too large.', {
      hint: `Send fewer or shorter headers (${maxHeaderSize / 1024} KB in all at most).`,
    });
  }
  return new HttpProblem(400, invalidRequestCode, 'The request is not valid HTTP/1.1.', {
    hint: 'Check the request line and headers; send either Content-Length or Transfer-Encoding, not both.',
  });
}

/** A response already on its way (a time-out in the middle of answering) cannot be replaced. */
function responseStarted(socket: Socket): boolean {
  const response = (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage;
  return response?.headersSent === true;
}
