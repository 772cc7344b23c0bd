import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';
import type { ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { Static, TSchema } from 'typebox';
import { schemaErrorSentences, type ErrorSubject } from '../http/schema-errors.js';

/**
 * MCP tool schemas must stand alone, while the REST schemas refer to shared
 * components by name (`{ $ref: 'Product' }`). This inlines those references from the
 * app's shared schemas, so a tool's output schema is exactly the REST resource.
 */
export function inlineRefs<T extends TSchema>(schema: T, shared: Record<string, unknown>): T {
  return resolve(schema, shared, []) as T;
}

function resolve(node: unknown, shared: Record<string, unknown>, trail: string[]): unknown {
  if (Array.isArray(node)) return node.map((item) => resolve(item, shared, trail));
  if (node === null || typeof node !== 'object') return node;
  const { $ref, $id: _id, ...rest } = node as Record<string, unknown>;
  if (typeof $ref === 'string') {
    const name = $ref.replace(/#$/, '');
    const target = shared[name];
    if (target === undefined) throw new Error(`Unknown shared schema "${name}"`);
    if (trail.includes(name)) throw new Error(`Recursive shared schema "${name}" cannot be inlined`);
    return { ...(resolve(target, shared, [...trail, name]) as object), ...resolve(rest, shared, trail) as object };
  }
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, resolve(value, shared, trail)]));
}

/** A tool's arguments as its handler may use them, or the sentence telling the agent what to fix. */
export type ArgumentCheck<T> = { ok: true; args: T } | { ok: false; message: string };

/** A tool's input schema, compiled once: what `tools/list` shows and the check of the arguments. */
export interface ToolInput<T> {
  /** For `registerTool`: advertises the schema; arguments are checked by `check` in the tool itself. */
  schema: StandardSchemaWithJSON<T, T>;
  check(args: unknown): ArgumentCheck<T>;
}

type JsonSchema = Record<string, unknown>;

// allErrors: an agent fixes every wrong argument in one retry; verbose: an error carries
// the schema it broke, which the message describes.
const ajv = new Ajv2020({ strict: false, allErrors: true, verbose: true, validateSchema: false });
addFormats.default(ajv);
/**
 * Each distinct standalone schema compiled once in the process, keyed by its text: every
 * app a process builds has the same tool schemas (the test suite and the benchmarks build
 * hundreds), and compiling them anew was much of the CPU of building one. A
 * schema that differs in anything (a configured description) is another key.
 */
const validatorsBySchemaText = new Map<string, ValidateFunction>();

function compile(json: JsonSchema): ValidateFunction {
  const key = JSON.stringify(json);
  let validate = validatorsBySchemaText.get(key);
  if (!validate) {
    validate = ajv.compile(json);
    validatorsBySchemaText.set(key, validate);
  }
  return validate;
}

/**
 * Builds the tool schemas of one app, once, when the MCP plugin registers. The SDK's
 * own validator compiles a schema each time it is handed a new object and keeps every
 * compiled function for the life of its Ajv instance, so tool schemas must not be
 * built per request: here each schema is compiled once (see `validatorsBySchemaText`), and every
 * request's server reuses the same objects.
 */
export class ToolSchemaCompiler {
  constructor(private readonly sharedSchemas: Record<string, unknown>) {}

  /** A schema that may refer to the shared REST schemas, made standalone. */
  standalone<T extends TSchema>(schema: T): T {
    return inlineRefs(schema, this.sharedSchemas);
  }

  /**
   * The SDK would answer a bad argument with its own prose ("Input validation error: ...
   * must be equal to constant"); the tool checks instead, so the failure is a tool error
   * in the surface's envelope that names the field and the values it accepts.
   */
  input<T extends TSchema>(schema: T): ToolInput<Static<T>> {
    const json = this.standalone(schema) as unknown as JsonSchema;
    const validate = compile(json);
    return {
      schema: standardSchema(json, (value) => ({ value: value as Static<T> })),
      check: (args) => (validate(args ?? {}) ? { ok: true, args: args as Static<T> } : { ok: false, message: describeErrors(validate) }),
    };
  }

  /** An output schema, compiled once; the SDK checks each successful result against it. */
  output<T extends TSchema>(schema: T): StandardSchemaWithJSON<Static<T>, Static<T>> {
    const json = this.standalone(schema) as unknown as JsonSchema;
    const validate = compile(json);
    return standardSchema<Static<T>>(json, (value) =>
      validate(value) ? { value: value as Static<T> } : { issues: [{ message: ajv.errorsText(validate.errors) }] },
    );
  }
}

function standardSchema<T>(
  json: JsonSchema,
  validate: StandardSchemaWithJSON<T, T>['~standard']['validate'],
): StandardSchemaWithJSON<T, T> {
  return { '~standard': { version: 1, vendor: 'vetrina', validate, jsonSchema: { input: () => json, output: () => json } } };
}

/** One sentence per wrong argument, e.g. "Invalid arguments: quantity must be an integer from 1 to 99." */
function describeErrors(validate: ValidateFunction): string {
  return `Invalid arguments: ${schemaErrorSentences(validate.errors ?? [], ARGUMENTS).join('; ')}.`;
}

const ARGUMENTS: ErrorSubject = { whole: 'the arguments', field: (name) => name, takesNone: 'this tool takes no arguments' };
