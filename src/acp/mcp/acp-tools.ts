import { ProtocolError, type CallToolResult, type ToolAnnotations } from '@modelcontextprotocol/server';
import { Type } from 'typebox';
import { HttpProblem, internalProblem } from '../../http/problem.js';
import type { ToolSchemaCompiler } from '../../mcp/json-schema.js';
import type { ToolContext, ToolDefinition } from '../../mcp/tool.js';
import { changesState, pathParameter, PathId, requireServedVersion, runAcpOperation, verifySignature, type AcpSigning } from '../binding.js';
import { AcpProblem, acpErrorBody, acpErrors } from '../errors.js';
import type { AcpOperation, AcpOperationKit } from '../operation.js';
import { signablePayload } from '../signatures.js';
import { ACP_VERSION } from '../version.js';

/**
 * The JSON-RPC error code of every ACP failure over MCP: the release's binding answers
 * them uniformly as -32000 with its Error object in `error.data` (changelog 2026-04-17,
 * MCP Transport Binding; examples.mcp.agentic_checkout.json).
 */
const ACP_MCP_ERROR_CODE = -32000;

const text = (maxLength: number, description: string) => Type.Optional(Type.String({ maxLength, description }));

/** The release's `meta` (openrpc.agentic_checkout.json): the REST headers, the bearer key aside (it is the MCP request's). */
const Meta = Type.Object(
  {
    api_version: Type.String({ description: `The API-Version header: ${ACP_VERSION}, the only version served (else missing_api_version or unsupported_api_version).` }),
    idempotency_key: Type.Optional(
      Type.String({
        minLength: 1,
        maxLength: 255,
        description:
          "The Idempotency-Key header, optional here as the release's MCP binding has it; read by the POST tools (create, update, complete, cancel). The same key and payload replay the first answer for 24 h, over REST and MCP alike (the same record as REST's header on the same session); with another payload it is idempotency_conflict.",
      }),
    ),
    request_id: text(255, "The Request-Id header: echoed in the result's _meta.request_id."),
    user_agent: text(1024, 'The User-Agent header: accepted, not read.'),
    accept_language: text(256, 'The Accept-Language header: accepted, not read.'),
    signature: text(1024, 'The Signature header: required when the deployment has ACP_SIGNING_SECRET, base64url HMAC-SHA256 of `<timestamp>.<payload as RFC 8785 canonical JSON>` (an empty payload part without one; docs/acp.md, MCP binding).'),
    timestamp: text(64, 'The Timestamp header: RFC 3339, required with signature, within ACP_SIGNATURE_TOLERANCE_SECONDS of the server clock.'),
  },
  { additionalProperties: true, description: 'Request metadata: the REST headers.' },
);

const READ: ToolAnnotations = { readOnlyHint: true, idempotentHint: true, destructiveHint: false, openWorldHint: false };
const WRITE: ToolAnnotations = { readOnlyHint: false, idempotentHint: false, destructiveHint: false, openWorldHint: false };

export interface AcpToolOptions {
  kit: AcpOperationKit;
  schemas: ToolSchemaCompiler;
  /** Set when the deployment verifies request signatures (ACP_SIGNING_SECRET). */
  signing: AcpSigning | undefined;
}

interface ToolArguments {
  meta: { api_version: string; idempotency_key?: string; request_id?: string };
  id?: string;
  payload?: unknown;
}

/**
 * The release's MCP binding (openrpc.agentic_checkout.json): one tool per operation that
 * names its `mcpTool`, with the release's arguments: `meta` (the REST headers), `id`
 * (the path's checkout session id) and `payload` (the REST body, the same schema). A call
 * is checked in REST's order (the version, the signature, the arguments, the key) and
 * runs the operation as REST does (src/acp/binding.ts). Its result is the REST answer,
 * as structuredContent and as the same JSON in a text block, with `_meta` echoing
 * request_id and idempotency_key (and `idempotent_replayed` on a replay); every failure
 * is a JSON-RPC error -32000 whose `data` is the release's Error, its `param` pointing
 * into the arguments (`$.payload.line_items[1].id`).
 */
export function acpTools(operations: readonly AcpOperation<any>[], { kit, schemas, signing }: AcpToolOptions): ToolDefinition[] {
  return operations.flatMap((op) => {
    const { mcpTool } = op;
    if (mcpTool === undefined) return [];
    const takesId = pathParameter(op.path) !== undefined;
    const payload = op.body && (op.body.required ? op.body.schema : Type.Optional(op.body.schema));
    const input = schemas.input(Type.Object({ meta: Meta, ...(takesId && { id: PathId }), ...(payload && { payload }) }, { additionalProperties: false }));
    const output = schemas.output(op.result);
    const tool: ToolDefinition = {
      name: mcpTool,
      config: {
        title: op.title,
        description: `${op.description} REST: ${op.method} /acp${op.path}; failures are JSON-RPC errors -32000, the error code in data.code.`,
        inputSchema: input.schema,
        annotations: op.method === 'GET' ? READ : WRITE,
      },
      async call(args: unknown, context: ToolContext): Promise<CallToolResult> {
        try {
          const given = (args ?? {}) as { meta?: Record<string, unknown> | null; payload?: unknown };
          const meta = given.meta ?? {};
          requireServedVersion(meta.api_version, 'Send meta.api_version');
          if (signing) verifySignature(signing, { signature: meta.signature, timestamp: meta.timestamp }, signablePayload(given.payload));
          const checked = input.check(args);
          if (!checked.ok) throw new AcpProblem(400, 'invalid_request', checked.message);
          const values = checked.args as ToolArguments;
          const idempotencyKey = changesState(op.method) ? values.meta.idempotency_key : undefined;
          const outcome = await runAcpOperation(
            op,
            { ...(takesId && { id: values.id }), body: op.body ? (values.payload ?? {}) : undefined },
            { ...context, ...(idempotencyKey !== undefined && { idempotencyKey }) },
            kit.sandbox,
          );
          // A business error recorded under the idempotency key, the first time or replayed.
          if (outcome.statusCode >= 400) throw acpJsonRpcError(outcome.body as AcpErrorBody);
          const checkedOutput = output['~standard'].validate(outcome.body) as { issues?: readonly { message: string }[] };
          if (checkedOutput.issues) throw new Error(`${mcpTool} answered outside its schema: ${checkedOutput.issues.map((issue) => issue.message).join('; ')}`);
          const { request_id: requestId } = values.meta;
          const echoed = {
            ...(requestId !== undefined && { request_id: requestId }),
            ...(idempotencyKey !== undefined && { idempotency_key: idempotencyKey }),
            ...(outcome.replayed && { idempotent_replayed: true }),
          };
          return {
            content: [{ type: 'text', text: outcome.json }],
            structuredContent: outcome.body as Record<string, unknown>,
            ...(Object.keys(echoed).length > 0 && { _meta: echoed }),
          };
        } catch (error) {
          throw toJsonRpcError(error, mcpTool, context);
        }
      },
    };
    return [tool];
  });
}

type AcpErrorBody = ReturnType<typeof acpErrorBody>;

/** The release's Error as a JSON-RPC error; a JSONPath into the request body becomes one into the tool's arguments. */
function acpJsonRpcError(body: AcpErrorBody): ProtocolError {
  const param = body.param?.startsWith('$') ? `$.payload${body.param.slice(1)}` : body.param;
  return new ProtocolError(ACP_MCP_ERROR_CODE, body.message, { ...body, ...(param !== undefined && { param }) });
}

/** Any failure of a call as its JSON-RPC error; an unexpected one is logged and answered without its message. */
function toJsonRpcError(error: unknown, tool: string, { request }: ToolContext): ProtocolError {
  if (error instanceof ProtocolError) return error;
  if (error instanceof HttpProblem) return acpJsonRpcError(acpErrorBody(error));
  const recognised = acpErrors.recognise?.(error);
  if (recognised) return acpJsonRpcError(acpErrorBody(recognised));
  request.log.error({ err: error, tool }, 'ACP MCP tool failed');
  return acpJsonRpcError(acpErrorBody(internalProblem(acpErrors.internalErrorCode)));
}
