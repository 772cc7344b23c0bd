import type { ErrorObject } from 'ajv';
import type { FastifySchemaValidationError } from 'fastify';
import type { SchemaErrorDataVar } from 'fastify/types/schema.js';

type JsonSchema = Record<string, unknown>;

/** What the sentences call the input and its fields: "the arguments" and "quantity" on MCP, "header idempotency-key" on REST. */
export interface ErrorSubject {
  /** The input as a whole, when it is itself wrong (not an object). */
  whole: string;
  /** A field, by its path ("address.country", "items[0].quantity"). */
  field(path: string): string;
  /** Why an object that takes no fields refuses one: "this tool takes no arguments". */
  takesNone: string;
}

const PART_NAMES: Record<string, { whole: string; field: string }> = {
  body: { whole: 'the request body', field: '' },
  querystring: { whole: 'the query string', field: 'query parameter ' },
  params: { whole: 'the path', field: 'path parameter ' },
  headers: { whole: 'the headers', field: 'header ' },
};

/** A part of an HTTP request (Fastify's `dataVar`) as the sentences name it: body fields by their name, the others with their kind. */
export function requestPart(dataVar: string): ErrorSubject {
  const names = PART_NAMES[dataVar] ?? { whole: dataVar, field: `${dataVar} ` };
  return { whole: names.whole, field: (path) => `${names.field}${path}`, takesNone: `${names.whole} takes no fields` };
}

/**
 * A surface's `schemaErrorFormatter` whose 400 names every wrong field of the request in
 * a sentence, in the words the MCP tools use for their arguments: "quantity must be an
 * integer from 1 to 99", "header idempotency-key is required and must be a string from
 * 1 to 255 characters".
 */
export function sentenceSchemaError(errors: FastifySchemaValidationError[], dataVar: SchemaErrorDataVar): Error {
  return new Error(schemaErrorSentences(errors as ErrorObject[], requestPart(dataVar)).join('; '));
}

/**
 * One sentence per wrong field, naming it and what it accepts, e.g. "quantity must be an
 * integer from 1 to 99": for the MCP tools' arguments and the REST routes' requests
 * alike. The errors must carry their schema (Ajv's `verbose`); one that does not (a check
 * of our own) keeps its message.
 */
export function schemaErrorSentences(errors: readonly ErrorObject[], subject: ErrorSubject): string[] {
  const sentences = new Map<string, string>();
  for (const error of errors) {
    const [field, sentence] = describeError(error, subject);
    if (!sentences.has(field)) sentences.set(field, sentence);
  }
  return [...sentences.values()];
}

function describeError(error: ErrorObject, subject: ErrorSubject): [field: string, sentence: string] {
  const at = fieldName(error.instancePath);
  const name = (path: string) => (path === '' ? subject.whole : subject.field(path));
  const parent = error.parentSchema as JsonSchema | undefined;
  if (parent === undefined) return [at, `${name(at)} ${error.message ?? 'is invalid'}`];
  const properties = (parent.properties ?? {}) as Record<string, JsonSchema>;
  if (error.keyword === 'required') {
    const property = (error.params as { missingProperty: string }).missingProperty;
    const missing = join(at, property);
    return [missing, `${name(missing)} is required and must be ${describe(properties[property] ?? {})}`];
  }
  if (error.keyword === 'additionalProperties') {
    const extra = join(at, (error.params as { additionalProperty: string }).additionalProperty);
    const allowed = Object.keys(properties);
    return [extra, `${name(extra)} is not accepted${allowed.length > 0 ? ` (accepted: ${allowed.join(', ')})` : ` (${subject.takesNone})`}`];
  }
  return [at, `${name(at)} must be ${describe(parent)}`];
}

function fieldName(instancePath: string): string {
  return instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : join(path, part)), '');
}

const join = (path: string, name: string) => (path === '' ? name : `${path}.${name}`);

/** What a schema accepts, in words an agent can act on. */
function describe(schema: JsonSchema): string {
  if ('const' in schema) return String(schema.const);
  if (Array.isArray(schema.enum)) return `one of ${schema.enum.join(', ')}`;
  const alternatives = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (alternatives) return alternatives.map(describe).join(' or ');
  switch (schema.type) {
    case 'integer':
    case 'number':
      return `${schema.type === 'integer' ? 'an integer' : 'a number'}${range(schema.minimum, schema.maximum, '')}`;
    case 'string': {
      const length = range(schema.minLength, schema.maxLength, ' characters');
      const pattern = typeof schema.pattern === 'string' ? ` matching ${schema.pattern}` : '';
      const format = typeof schema.format === 'string' ? ` in ${schema.format} format` : '';
      return `a string${length}${pattern}${format}`;
    }
    case 'array': {
      const distinct = schema.uniqueItems ? ' distinct' : '';
      const items = schema.items ? `, each ${describe(schema.items as JsonSchema)}` : '';
      const count = typeof schema.maxItems === 'number' ? ` at most ${schema.maxItems}` : '';
      return `a list of${count}${distinct} items${items}`;
    }
    case 'object': {
      const required = (schema.required as string[] | undefined) ?? [];
      return required.length > 0 ? `an object with ${required.join(', ')}` : 'an object';
    }
    case 'boolean':
      return 'true or false';
    default:
      return 'a valid value';
  }
}

function range(min: unknown, max: unknown, unit: string): string {
  if (typeof min === 'number' && typeof max === 'number') return min === max ? ` of exactly ${min}${unit}` : ` from ${min} to ${max}${unit}`;
  if (typeof min === 'number') return ` of at least ${min}${unit}`;
  if (typeof max === 'number') return ` of at most ${max}${unit}`;
  return '';
}
