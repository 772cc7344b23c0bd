import assert from 'node:assert/strict';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const CURRENT_REVISION = '2026-07-28';

export interface McpClientOptions {
  /** Pin the current revision; otherwise the client negotiates 2025-11-25 (the SDK default). */
  pinCurrent?: boolean;
  token?: string;
}

export interface ToolOutcome {
  isError: boolean;
  /** structuredContent on success; the parsed JSON text block on a tool error. */
  data: any;
}

/**
 * The official MCP client over real HTTP, with a `call` that checks what every test
 * relies on: a success carries structuredContent (valid against the outputSchema where a tool declares one)
 * outputSchema and a text block with the same JSON; a tool error carries JSON text.
 */
export class McpTestClient {
  private validators: Map<string, ValidateFunction> | undefined;
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  private constructor(readonly client: Client) {
    addFormats.default(this.ajv);
  }

  static async connect(url: string, options: McpClientOptions = {}): Promise<McpTestClient> {
    const client = new Client(
      { name: 'vetrina-tests', version: '1.0.0' },
      options.pinCurrent ? { versionNegotiation: { mode: { pin: CURRENT_REVISION } } } : {},
    );
    const headers: Record<string, string> = options.token ? { authorization: `Bearer ${options.token}` } : {};
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers } }));
    return new McpTestClient(client);
  }

  async toolNames(): Promise<string[]> {
    return (await this.client.listTools()).tools.map((tool) => tool.name).sort();
  }

  async call(name: string, args: Record<string, unknown> = {}): Promise<ToolOutcome> {
    const validators = await this.outputValidators();
    const result = await this.client.callTool({ name, arguments: args });
    const text = (result.content as { type: string; text?: string }[]).find((block) => block.type === 'text')?.text;
    assert.ok(text !== undefined, `${name} answered without a text block`);
    if (result.isError) {
      let data: unknown = text;
      try {
        data = JSON.parse(text);
      } catch {
        // SDK-level argument validation answers in prose.
      }
      return { isError: true, data };
    }
    // The tools advertise no outputSchema (tools/list stays small); each checks its result
    // against its REST schema itself, and one that broke it would be a tool error here.
    const validate = validators.get(name);
    if (validate) assert.ok(validate(result.structuredContent), `${name} structuredContent breaks its outputSchema: ${this.ajv.errorsText(validate.errors)}`);
    assert.deepEqual(JSON.parse(text), result.structuredContent, `${name} text block differs from structuredContent`);
    return { isError: false, data: result.structuredContent };
  }

  /** A tool call's result as it came, or the JSON-RPC error the client threw (the UCP binding's protocol errors). */
  async callOrError(name: string, args: Record<string, unknown>): Promise<{ result?: any; error?: { code: number; message: string; data?: any } }> {
    try {
      return { result: await this.client.callTool({ name, arguments: args }) };
    } catch (error) {
      const { code, message, data } = error as { code?: unknown; message: string; data?: unknown };
      if (typeof code !== 'number') throw error;
      return { error: { code, message, data } };
    }
  }

  close(): Promise<void> {
    return this.client.close();
  }

  private async outputValidators(): Promise<Map<string, ValidateFunction>> {
    if (!this.validators) {
      const { tools } = await this.client.listTools();
      this.validators = new Map(
        tools.filter((tool) => tool.outputSchema).map((tool) => [tool.name, this.ajv.compile(tool.outputSchema as object)]),
      );
    }
    return this.validators;
  }
}
