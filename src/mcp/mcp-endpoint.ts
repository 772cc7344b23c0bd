import {
  createMcpHandler,
  hostHeaderValidationResponse,
  isLegacyRequest,
  McpServer,
  originValidationResponse,
  WebStandardStreamableHTTPServerTransport,
  type AuthInfo,
} from '@modelcontextprotocol/server';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { Type } from 'typebox';
import type { McpBatchConfig } from '../config.js';
import { CORS_REQUEST_HEADERS } from '../http/cors.js';
import { useErrorSurface, type ErrorSurface } from '../http/error-surface.js';
import { HttpProblem } from '../http/problem.js';
import type { RateLimitCheck } from '../http/rate-limit.js';
import { bindTools, type ToolContext, type ToolDefinition } from './tool.js';

export interface McpEndpointOptions {
  /** Under `/mcp`: `''` is `/mcp` itself. */
  path: string;
  name: string;
  version: string;
  instructions: string;
  summary: string;
  description: string;
  /** Its tag in /openapi.json; `discovery` unless told. */
  tag?: string;
  allowedHosts: string[];
  /** The service's CORS origins; pages on them are answered only when their host is also an allowed host. */
  corsOrigins: string[] | '*';
  /** Built once per process; every request's server binds them to that request. */
  tools: readonly ToolDefinition[];
  /** The window every request already counted against once: a batch counts its other messages there. */
  rateLimit: RateLimitCheck;
  batch: McpBatchConfig;
}

/** Carries the Fastify exchange through the SDK's handler to the per-request server factory. */
interface ExchangeAuthInfo extends AuthInfo {
  extra: { context: ToolContext };
}

/** The methods the stateless endpoint answers; everything else, GET and DELETE included, is 405. */
const ALLOW = 'POST';
const OTHER_METHODS = ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

/** The body of every refusal of an MCP endpoint, ours (jsonRpcErrors) and the SDK's alike. */
const JsonRpcError = Type.Object({
  jsonrpc: Type.Literal('2.0'),
  id: Type.Union([Type.String(), Type.Number(), Type.Null()], { description: "The refused request's id; null when it had none or could not be read." }),
  error: Type.Object({
    code: Type.Integer({ description: '-32700 parse error, -32600 invalid request, -32000 refused (by a limit or a policy: `data.code` says which).' }),
    message: Type.String(),
    data: Type.Optional(Type.Object({}, { additionalProperties: true })),
  }),
});

/** One JSON-RPC message a client sends: a request (with an id), a notification (without) or a response to the server. */
const JsonRpcMessage = Type.Object(
  {
    jsonrpc: Type.Literal('2.0'),
    id: Type.Optional(Type.Union([Type.String(), Type.Integer()])),
    method: Type.Optional(Type.String({ examples: ['tools/list', 'tools/call', 'initialize'] })),
    params: Type.Optional(Type.Object({}, { additionalProperties: true })),
    result: Type.Optional(Type.Object({}, { additionalProperties: true })),
    error: Type.Optional(Type.Object({}, { additionalProperties: true })),
  },
  { additionalProperties: true },
);

/**
 * The one protocol revision with JSON-RPC batches (2025-06-18 removed them), and the
 * revision of a request that names none (the MCP-Protocol-Version header's default).
 */
export const BATCH_REVISION = '2025-03-26';

/**
 * What the document shows as the body. It is not validated here: the SDK answers a
 * malformed message itself, with the JSON-RPC error the protocol names.
 */
const JsonRpcBody = Type.Union(
  [JsonRpcMessage, Type.Array(JsonRpcMessage, { minItems: 1, description: `A JSON-RPC batch, under protocol revision ${BATCH_REVISION} only.` })],
  {
    description: 'A JSON-RPC 2.0 message, or a batch of them (MCP Streamable HTTP).',
    examples: [{ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }],
  },
);

/** A Host header as RFC 9110 allows it: a name or IP literal and an optional port, no credentials. */
const HOST_SHAPE = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+)(?::(\d{1,5}))?$/;

/**
 * Registers the MCP endpoints of `register` under `/mcp`, in a context of their own, so
 * that their failures (a malformed JSON body, a rate limit, a bad Host, an unknown path)
 * answer as JSON-RPC errors rather than in the catalog's envelope, and none of their
 * answers is cached. Every request to them, whatever its method or body, counts against
 * `rateLimit` before anything else is done with it.
 */
export async function mcpEndpoints(
  app: FastifyInstance,
  rateLimit: RateLimitCheck,
  register: (scope: FastifyInstance) => void,
): Promise<void> {
  await app.register(
    async (scope) => {
      useErrorSurface(scope, jsonRpcErrors);
      scope.addHook('onRequest', rateLimit);
      register(scope);
    },
    { prefix: '/mcp' },
  );
}

/**
 * A stateless Streamable HTTP MCP endpoint: every request gets a fresh server from the
 * SDK's createMcpHandler, so any instance can answer any request. The server is cheap:
 * the tools, their schemas and compiled validators are built once, and a request only
 * binds them to its own context. Host and Origin are checked against an allow-list
 * first, against DNS rebinding.
 */
export function registerMcpEndpoint(app: FastifyInstance, options: McpEndpointOptions): void {
  const serverFor = (context: ToolContext) => {
    const server = new McpServer(
      { name: options.name, version: options.version },
      { instructions: options.instructions, capabilities: { tools: {} } },
    );
    bindTools(server, options.tools, context);
    return server;
  };
  const handler = createMcpHandler((ctx) => serverFor((ctx.authInfo as ExchangeAuthInfo).extra.context), {
    legacy: 'reject',
    onerror: (error) => app.log.warn({ err: error }, 'MCP request rejected'),
  });
  // 2025-era requests are served here rather than by the handler's own stateless
  // fallback, which always answers over an SSE stream: a plain JSON answer costs a
  // fraction of that, and Streamable HTTP lets the server choose either.
  const serveLegacy = async (webRequest: Request, context: ToolContext, message: unknown) => {
    const server = serverFor(context);
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    await server.connect(transport);
    try {
      return await transport.handleRequest(webRequest, { parsedBody: message });
    } finally {
      void server.close();
    }
  };
  const serveBatch = batchServer(options, serveLegacy);
  app.addHook('onClose', async () => handler.close());
  const config = { cors: mcpCorsPolicy(options) };

  app.post(
    options.path,
    {
      config,
      compress: false,
      schema: {
        operationId: options.name.replace(/\W+/g, '_'),
        tags: [options.tag ?? 'discovery'],
        summary: options.summary,
        description: options.description,
        security: [],
        'x-documented-body': JsonRpcBody,
        response: {
          200: {
            description: 'The JSON-RPC answer: one JSON message (an array of them for a batch), or an SSE stream of them (Streamable HTTP; the server chooses).',
            content: { 'application/json': { schema: Type.Object({}, { additionalProperties: true }) }, 'text/event-stream': { schema: Type.String() } },
          },
          202: { description: 'A notification or a response was accepted; no body.', type: 'null' },
          '4xx': {
            description:
              'A JSON-RPC error: 400 a body that is not JSON or not JSON-RPC, a batch the protocol revision has no batches in or larger than allowed, or a malformed Host; 403 a Host or Origin not allowed; 406 or 415 a wrong Accept or Content-Type; 429 the catalog rate limit (with RateLimit-* and Retry-After).',
            content: { 'application/json': { schema: JsonRpcError } },
          },
        },
      },
    },
    async (request, reply) => {
      // Checked before any URL is built from it: new URL() throws on such hosts.
      const host = request.headers.host;
      if (!isWellFormedHost(host)) {
        throw new HttpProblem(400, 'invalid_host_header', 'The Host header must be a host name or IP address with an optional port (1 to 65535).');
      }
      const webRequest = toWebRequest(request, host);
      const rejected =
        hostHeaderValidationResponse(webRequest, options.allowedHosts) ??
        originValidationResponse(webRequest, options.allowedHosts);
      if (rejected) return rejected;
      // Before the SDK reads every message of it: refusing an unservable batch costs little.
      if (Array.isArray(request.body)) refuseUnservableBatch(webRequest, request.body, options.batch);
      if (await isLegacyRequest(webRequest, request.body)) {
        const context = { request, reply };
        return Array.isArray(request.body) ? serveBatch(webRequest, context, request.body) : serveLegacy(webRequest, context, request.body);
      }
      const authInfo: ExchangeAuthInfo = { token: '', clientId: 'mcp', scopes: [], extra: { context: { request, reply } } };
      return handler.fetch(webRequest, { parsedBody: request.body, authInfo });
    },
  );

  // Fastify would add HEAD for a GET route; these are all one 405, with the Allow header.
  app.route({
    method: [...OTHER_METHODS],
    url: options.path,
    config,
    exposeHeadRoute: false,
    schema: { hide: true },
    handler: async (request) => {
      throw new HttpProblem(405, 'method_not_allowed', `${request.method} is not supported: this stateless MCP endpoint takes POST only.`, {
        headers: { allow: ALLOW },
      });
    },
  });
}

type ServeMessage = (webRequest: Request, context: ToolContext, message: unknown) => Promise<Response>;

/**
 * docs/decisions.md, MCP batches: a batch is served under BATCH_REVISION only, of up to
 * `batch.maxMessages` messages; any other is an invalid request.
 */
function refuseUnservableBatch(webRequest: Request, messages: unknown[], batch: McpBatchConfig): void {
  const revision = batchRevision(webRequest, messages);
  if (revision !== BATCH_REVISION) {
    throw new HttpProblem(
      400,
      jsonRpcErrors.invalidRequestCode,
      `This request speaks protocol revision ${revision}, which has no JSON-RPC batches (only ${BATCH_REVISION} has them): send one message per request.`,
    );
  }
  if (messages.length > batch.maxMessages) {
    throw new HttpProblem(400, jsonRpcErrors.invalidRequestCode, `A JSON-RPC batch holds at most ${batch.maxMessages} messages; this one has ${messages.length}.`);
  }
}

/**
 * docs/decisions.md, MCP batches. Every message of a servable batch (refuseUnservableBatch)
 * counts against the catalog window before any runs. Its messages run one after another, one per event-loop turn, so a batch cannot
 * hold the process for longer than one call at a time; once their answers pass
 * `batch.maxAnswerBytes`, the call that passed the bound and every call after it are
 * answered with a refusal instead (those after it never run).
 */
function batchServer({ rateLimit, batch }: McpEndpointOptions, serveMessage: ServeMessage) {
  return async (webRequest: Request, context: ToolContext, messages: unknown[]): Promise<Response> => {
    await rateLimit.more(context.request, context.reply, messages.length - 1);
    const answers: string[] = [];
    let bytes = 0;
    for (const [index, message] of messages.entries()) {
      if (index > 0) await nextTurn();
      if (bytes > batch.maxAnswerBytes) {
        if (hasId(message)) answers.push(answerTooLarge(message.id, batch));
        continue;
      }
      const response = await serveMessage(webRequest, context, message);
      // The transport's refusals (Accept, Content-Type, protocol version) are the whole request's.
      if (response.status >= 400) return response;
      if (response.status === 202) continue;
      const answer = await response.text();
      bytes += Buffer.byteLength(answer) + 1;
      answers.push(bytes > batch.maxAnswerBytes && hasId(message) ? answerTooLarge(message.id, batch) : answer);
    }
    if (answers.length === 0) return new Response(null, { status: 202 });
    return new Response(`[${answers.join(',')}]`, { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

/** The revision a batch speaks: its MCP-Protocol-Version header, else what its initialize asks for, else the header's default. */
function batchRevision(webRequest: Request, messages: unknown[]): string {
  const header = webRequest.headers.get('mcp-protocol-version');
  if (header !== null) return header.trim();
  // Read before the SDK checks the messages' shape: any of them may be null or a number.
  const initialize = messages.find((message) => (message as { method?: unknown } | null)?.method === 'initialize') as { params?: { protocolVersion?: unknown } | null } | undefined;
  const asked = initialize?.params?.protocolVersion;
  return typeof asked === 'string' ? asked : BATCH_REVISION;
}

function hasId(message: unknown): message is { id: string | number } {
  const { id } = message as { id?: unknown };
  return typeof id === 'string' || typeof id === 'number';
}

function answerTooLarge(id: string | number, batch: McpBatchConfig): string {
  const problem = new HttpProblem(
    413,
    'batch_answer_too_large',
    `The answers of this batch passed ${batch.maxAnswerBytes} bytes before this message: send it again in a batch of its own or alone.`,
  );
  return JSON.stringify({ jsonrpc: '2.0', id, error: jsonRpcError(problem) });
}

/**
 * Pages may call an MCP endpoint only from an origin whose host is an allowed host (the
 * DNS-rebinding guard would refuse the others anyway) and that CORS_ORIGINS allows;
 * other origins get no CORS headers, and their preflight the endpoint's 405.
 */
function mcpCorsPolicy({ allowedHosts, corsOrigins }: McpEndpointOptions) {
  const allowed = (origin: string | undefined): boolean => {
    if (origin === undefined || (corsOrigins !== '*' && !corsOrigins.includes(origin))) return false;
    try {
      return allowedHosts.includes(new URL(origin).hostname.toLowerCase());
    } catch {
      return false;
    }
  };
  return {
    origin: (origin: string | undefined, answer: (error: Error | null, allow: boolean) => void) => answer(null, allowed(origin)),
    allowedHeaders: [...CORS_REQUEST_HEADERS, 'Mcp-Protocol-Version', 'Mcp-Session-Id', 'Last-Event-ID'],
  };
}

function isWellFormedHost(host: string | undefined): host is string {
  const match = host === undefined ? null : HOST_SHAPE.exec(host);
  const port = match?.[1] === undefined ? undefined : Number(match[1]);
  return match !== null && (port === undefined || (port >= 1 && port <= 65_535));
}

function toWebRequest(request: FastifyRequest, host: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'content-length') continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  // The SDK is handed Fastify's parsed body, so the request carries no body of its own.
  return new Request(new URL(request.url, `http://${host}`), { method: request.method, headers });
}

/** JSON-RPC error codes: the request was not JSON, was not a valid request, or failed on our side. */
const PARSE_ERROR = -32700;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;
/** Implementation-defined server errors (-32000 to -32099): refused by a limit or a policy. */
const SERVER_REFUSED = -32000;

const UNPARSABLE_BODY = new Set(['FST_ERR_CTP_INVALID_JSON_BODY', 'FST_ERR_CTP_EMPTY_JSON_BODY']);

/**
 * The MCP endpoints' envelope: a JSON-RPC error answering the request's id. A body that is
 * not JSON is the parse error, a malformed request the invalid-request error, an
 * unexpected failure the internal error; a refusal by a limit or a policy carries its
 * code (and `retry_after`) in `data`. JSON-RPC answers hold sandbox keys, carts and
 * addresses and belong to their one exchange: no cache may keep any of them.
 */
const jsonRpcErrors: ErrorSurface = {
  body: (problem, exchange) => ({ jsonrpc: '2.0', id: requestId(exchange.body), error: jsonRpcError(problem) }),
  invalidRequestCode: 'invalid_request',
  notFoundCode: 'not_found',
  internalErrorCode: 'internal_error',
  recognise: (error) =>
    UNPARSABLE_BODY.has((error as FastifyError).code) ? new HttpProblem(400, 'parse_error', `Parse error: ${(error as Error).message}`) : undefined,
  headers: { 'cache-control': 'no-store' },
};

function jsonRpcError(problem: HttpProblem): object {
  if (problem.statusCode >= 500) return { code: INTERNAL_ERROR, message: 'Internal error.' };
  if (problem.code === 'parse_error') return { code: PARSE_ERROR, message: problem.message };
  if (problem.code === jsonRpcErrors.invalidRequestCode) return { code: INVALID_REQUEST, message: problem.message };
  const { retryAfter } = problem.details;
  return { code: SERVER_REFUSED, message: problem.message, data: { code: problem.code, ...(retryAfter !== undefined && { retry_after: retryAfter }) } };
}

/** The id of the JSON-RPC request being refused, or null when there is none to answer. */
function requestId(body: unknown): string | number | null {
  const id = (body as { id?: unknown } | null | undefined)?.id;
  return typeof id === 'string' || typeof id === 'number' ? id : null;
}
