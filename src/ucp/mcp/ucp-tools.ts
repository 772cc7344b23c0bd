import type { CallToolResult, ProtocolError, ToolAnnotations } from '@modelcontextprotocol/server';
import { Type, type TSchema } from 'typebox';
import { HttpProblem, internalProblem } from '../../http/problem.js';
import type { ToolSchemaCompiler } from '../../mcp/json-schema.js';
import type { ToolContext, ToolDefinition } from '../../mcp/tool.js';
import { UcpMetadataSchema } from '../envelope.js';
import { jsonRpcProtocolError, ucpErrors, UcpErrorResponseSchema, UcpProtocolError } from '../errors.js';
import type { Negotiator } from '../negotiation/negotiator.js';
import { IDEMPOTENCY_RULES, uuidSchema } from '../idempotency.js';
import { runOperation, type UcpOperation, type UcpOperationKit } from '../operation.js';

const UcpAgent = Type.Object(
  { profile: Type.String({ format: 'uri', description: "The platform profile URL (https): fetched, validated and cached; the call is negotiated against it." }) },
  { description: 'The platform: what the UCP-Agent header is on REST.' },
);

/** The request metadata a tool takes (mcp.openrpc.json, meta): the platform profile, and an idempotency key as `idempotency-key` says. */
const meta = (idempotencyKey: TSchema) =>
  Type.Object({ 'ucp-agent': UcpAgent, 'idempotency-key': idempotencyKey }, { additionalProperties: true, description: 'Request metadata.' });

/** A tool's metadata by what it does with an idempotency key: nothing, honour one, or require one. */
const META = {
  none: meta(Type.Optional(uuidSchema("Not used by this tool; the release's metadata allows one on every tool."))),
  optional: meta(Type.Optional(uuidSchema(`What the Idempotency-Key header is on REST. ${IDEMPOTENCY_RULES}`))),
  required: meta(uuidSchema(`Required by this tool (the release's MCP binding); what the Idempotency-Key header is on REST. ${IDEMPOTENCY_RULES}`)),
};

const metaOf = (op: UcpOperation<any>) => (!op.idempotent ? META.none : op.idempotencyKeyRequiredOnMcp ? META.required : META.optional);

const Id = Type.String({ minLength: 1, maxLength: 255, description: 'The resource id.' });

const READ: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };
const WRITE: ToolAnnotations = { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false };

export interface UcpToolOptions {
  negotiator: Negotiator;
  kit: UcpOperationKit;
  schemas: ToolSchemaCompiler;
}

/**
 * The MCP binding: one tool per operation, with the release's arguments (`meta`, `id`
 * where the operation acts on a resource, and its payload under the payload's name).
 * A call negotiates with the platform named in `meta` first, then runs the operation as
 * REST does. Answers and business outcomes are results (structuredContent and the same
 * JSON as text); protocol errors are JSON-RPC errors with the REST body in `data`: -32001
 * for negotiation failures, -32602 for bad arguments, -32000 for the other refusals,
 * -32603 for an unexpected failure (src/ucp/errors.ts).
 */
export function ucpTools(operations: readonly UcpOperation<any>[], { negotiator, kit, schemas }: UcpToolOptions): ToolDefinition[] {
  return operations.map((op) => {
    const takesId = op.path.includes('{id}');
    const input = schemas.input(
      Type.Object(
        { meta: metaOf(op), ...(takesId && { id: Id }), ...(op.payload && { [op.payload.name]: op.payload.schema }) },
        { additionalProperties: false },
      ),
    );
    const output = schemas.output(Type.Union([Type.Object({ ucp: UcpMetadataSchema, ...op.result.properties }), UcpErrorResponseSchema]));
    return {
      name: op.name,
      config: { title: op.title, description: op.description, inputSchema: input.schema, annotations: op.readOnly ? READ : WRITE },
      async call(args: unknown, context: ToolContext): Promise<CallToolResult> {
        try {
          const negotiated = await negotiator.fromMeta((args as { meta?: unknown } | null | undefined)?.meta);
          const checked = input.check(args);
          if (!checked.ok) throw new UcpProtocolError(400, 'invalid_request', checked.message);
          const values = checked.args as Record<string, unknown> & { meta: { 'idempotency-key'?: string } };
          const idempotencyKey = values.meta['idempotency-key'];
          const answer = await runOperation(
            op,
            { ...(takesId && { id: values.id as string }), payload: op.payload && values[op.payload.name] },
            { negotiated, ...context, ...(op.idempotent && idempotencyKey !== undefined && { idempotencyKey }) },
            kit,
          );
          const checkedOutput = output['~standard'].validate(answer.body) as { issues?: readonly { message: string }[] };
          if (checkedOutput.issues) throw new Error(`${op.name} answered outside its schema: ${checkedOutput.issues.map((issue) => issue.message).join('; ')}`);
          return { content: [{ type: 'text', text: JSON.stringify(answer.body) }], structuredContent: answer.body };
        } catch (error) {
          throw toJsonRpcError(error, op.name, context);
        }
      },
    };
  });
}

/** Any failure of a call as its JSON-RPC error; an unexpected one is logged and answered without its message. */
function toJsonRpcError(error: unknown, tool: string, { request }: ToolContext): ProtocolError {
  if (error instanceof HttpProblem) return jsonRpcProtocolError(error);
  const recognised = ucpErrors.recognise?.(error);
  if (recognised) return jsonRpcProtocolError(recognised);
  request.log.error({ err: error, tool }, 'UCP MCP tool failed');
  return jsonRpcProtocolError(internalProblem(ucpErrors.internalErrorCode));
}
