import { SpanStatusCode, trace } from '@opentelemetry/api';
import { ProtocolError, ProtocolErrorCode, type CallToolResult, type McpServer, type StandardSchemaWithJSON, type ToolAnnotations } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { serializeJson } from '../http/json-serializer.js';
import { HttpProblem, internalProblem } from '../http/problem.js';
import type { ErrorSurface } from '../http/error-surface.js';
import type { ToolInput } from './json-schema.js';

/** What one MCP request gives its tools: the HTTP exchange it arrived on. */
export interface ToolContext {
  request: FastifyRequest;
  reply: FastifyReply;
}

/** A tool built once per process; each request's server only binds it to the request's context. */
export interface ToolDefinition {
  name: string;
  config: {
    title: string;
    description: string;
    inputSchema: StandardSchemaWithJSON;
    annotations: ToolAnnotations;
  };
  call(args: unknown, context: ToolContext): Promise<CallToolResult>;
}

/**
 * A failure whose body is already in the surface's envelope (the recorded answer of an
 * idempotent call): a tool returns it and the agent gets that body as a tool error.
 */
export class RenderedToolError {
  constructor(readonly body: object) {}
}

export interface ToolSpec<Args> {
  name: string;
  title: string;
  description: string;
  input: ToolInput<Args>;
  /**
   * The REST resource the result is. Checked on every result, but not advertised as the
   * outputSchema: it is optional in MCP, and agents pay for every byte of tools/list (the
   * cart alone was 8 KB on each of 8 tools); the description and the server instructions
   * say what a result holds, and /openapi.json has the schema.
   */
  output: StandardSchemaWithJSON;
  annotations: ToolAnnotations;
  run(args: Args, context: ToolContext): Promise<object | RenderedToolError> | object | RenderedToolError;
}

/**
 * A tool whose result is structured content plus the same JSON as a text block; a bad
 * argument or a business failure is a tool error (`isError: true`) carrying the surface's
 * REST error body, so agents see the same codes as REST clients. An unexpected failure
 * is logged and answered with the surface's internal error, never with its message
 * (which may hold SQL or paths).
 */
export function defineTool<Args>(surface: ErrorSurface, spec: ToolSpec<Args>): ToolDefinition {
  const { name, title, description, input, output, annotations, run } = spec;
  return {
    name,
    config: { title, description, inputSchema: input.schema as StandardSchemaWithJSON, annotations },
    async call(args, context) {
      try {
        const checked = input.check(args);
        if (!checked.ok) {
          throw new HttpProblem(400, surface.invalidRequestCode, checked.message, {
            hint: `See the inputSchema of ${name} in tools/list.`,
          });
        }
        const data = await run(checked.args, context);
        if (data instanceof RenderedToolError) return toolError(data.body);
        const result = output['~standard'].validate(data) as Awaited<ReturnType<StandardSchemaWithJSON['~standard']['validate']>>;
        if (result.issues) throw new Error(`${name} answered outside its schema: ${result.issues.map((issue) => issue.message).join('; ')}`);
        return { content: [{ type: 'text', text: serializeJson(data) }], structuredContent: data as Record<string, unknown> };
      } catch (error) {
        const problem = error instanceof HttpProblem ? error : (surface.recognise?.(error) ?? unexpected(error, surface, name, context));
        return toolError(surface.body(problem, context.request));
      }
    },
  };
}

function toolError(body: object): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
}

function unexpected(error: unknown, surface: ErrorSurface, tool: string, { request }: ToolContext): HttpProblem {
  request.log.error({ err: error, tool }, 'MCP tool failed');
  return internalProblem(surface.internalErrorCode);
}

/**
 * Registers the prebuilt tools on one request's server, bound to that request. The
 * server lists them as McpServer does, but answers their calls itself: McpServer's
 * handler turns every failure into a tool result (`isError`), while a tool may throw a
 * ProtocolError to answer with that JSON-RPC error instead, code and `data` as thrown
 * (UCP's protocol errors, src/ucp/errors.ts). Every other failure is a tool error already
 * (defineTool).
 */
export function bindTools(server: McpServer, tools: readonly ToolDefinition[], context: ToolContext): void {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  for (const tool of tools) server.registerTool(tool.name, tool.config, (args: unknown) => tool.call(args, context));
  server.server.setRequestHandler('tools/call', async ({ params }) => {
    const tool = byName.get(params.name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Tool ${params.name} not found`);
    const result = await traced(tool.name, () => tool.call(params.arguments ?? {}, context));
    return server.server.projectCallToolResult(result, undefined);
  });
}

const tracer = trace.getTracer('vetrina/mcp');

/**
 * A span per tool call, named as OpenTelemetry's MCP conventions name it (`tools/call
 * <tool>`), under the span of the HTTP request it arrived on, so the call's queries and
 * Redis commands are under it. Without a traced request (tracing off) the call runs as it is.
 */
async function traced(name: string, call: () => Promise<CallToolResult>): Promise<CallToolResult> {
  if (!trace.getActiveSpan()) return call();
  const attributes = { 'mcp.method.name': 'tools/call', 'gen_ai.operation.name': 'execute_tool', 'gen_ai.tool.name': name };
  return tracer.startActiveSpan(`tools/call ${name}`, { attributes }, async (span) => {
    try {
      const result = await call();
      if (result.isError) span.setAttribute('error.type', 'tool_error').setStatus({ code: SpanStatusCode.ERROR });
      return result;
    } catch (error) {
      span.recordException(error instanceof Error ? error : String(error));
      span.setStatus({ code: SpanStatusCode.ERROR });
      throw error;
    } finally {
      span.end();
    }
  });
}
