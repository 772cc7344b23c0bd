import type { CallToolResult } from '@modelcontextprotocol/server';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpProblem } from '../http/problem.js';

/** What one MCP request gives its tools: the HTTP exchange it arrived on. */
export interface ToolContext {
  request: FastifyRequest;
  reply: FastifyReply;
}

/** How a surface renders a failure: the same body its REST routes answer with. */
export type ErrorRenderer = (problem: HttpProblem, context: ToolContext) => object;

/**
 * Runs a tool's work and shapes the result: structured content plus the same JSON as
 * a text block on success; on a business failure a tool error (`isError: true`)
 * carrying the REST error body, so agents see the same codes as REST clients.
 * Anything else is a bug and propagates to the SDK as an internal error.
 */
export async function runTool(
  context: ToolContext,
  renderError: ErrorRenderer,
  work: () => Promise<object> | object,
): Promise<CallToolResult> {
  try {
    const data = await work();
    return { content: [{ type: 'text', text: JSON.stringify(data) }], structuredContent: data as Record<string, unknown> };
  } catch (error) {
    if (!(error instanceof HttpProblem)) throw error;
    const body = renderError(error, context);
    return { isError: true, content: [{ type: 'text', text: JSON.stringify(body) }] };
  }
}
