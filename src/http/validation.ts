import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

type BuildValidator = (sharedSchemas: Record<string, unknown>) => FastifySchemaCompiler<unknown>;

/**
 * Route validation with two Ajv instances. Query strings, path parameters and headers
 * arrive as text, so they are coerced (`limit=5` is the integer 5, `limit=1.5` is still
 * rejected); an integer must be written as plain decimal digits, since Ajv's coercion
 * (JavaScript's `Number`) would also read `0x10`, `1e1` and ` 10` as numbers. Bodies
 * are JSON and are validated as sent: `"quantity": "2"` is an error,
 * and extra properties are rejected rather than silently stripped.
 *
 * Fastify asks for a compiler once per plugin context; the two instances are made once
 * per app and shared, because building an Ajv instance (its meta-schema, the shared
 * schemas) costs far more than compiling a route's schema with it.
 */
export function createValidatorCompilerFactory(): BuildValidator {
  const forText = createAjv({ coerceTypes: 'array' });
  const forBody = createAjv({ coerceTypes: false });
  const known = new Set<string>();
  return (sharedSchemas) => {
    for (const [id, schema] of Object.entries(sharedSchemas)) {
      if (known.has(id)) continue;
      known.add(id);
      forText.addSchema(schema as object, id);
      forBody.addSchema(schema as object, id);
    }
    return ({ schema, httpPart }) => (httpPart === 'body' ? forBody.compile(schema as object) : compileForText(forText, schema as object));
  };
}

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    ...options,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    // Each error carries the schema it broke, which the message describes (schema-errors.ts).
    verbose: true,
    discriminator: true,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

/** Optional minus sign, then digits without leading zeros. */
const PLAIN_INTEGER = /^-?(0|[1-9][0-9]*)$/;

interface TextValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** Checks the text of each top-level integer field before Ajv coerces it. */
function compileForText(ajv: Ajv, schema: object): ValidateFunction | TextValidator {
  const validate = ajv.compile(schema);
  const integerFields = integerPropertiesOf(schema);
  if (integerFields.length === 0) return validate;
  const validator: TextValidator = (data) => {
    const field = integerFields.find((name) => !isPlainIntegerText((data as Record<string, unknown> | undefined)?.[name]));
    if (field !== undefined) {
      validator.errors = [
        {
          instancePath: `/${field}`,
          schemaPath: `#/properties/${field}/type`,
          keyword: 'type',
          params: { type: 'integer' },
          message: 'must be an integer in plain decimal digits',
        },
      ];
      return false;
    }
    const valid = validate(data);
    validator.errors = validate.errors;
    return valid;
  };
  return validator;
}

function integerPropertiesOf(schema: object): string[] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties)
    .filter(([, property]) => property.type === 'integer')
    .map(([name]) => name);
}

/** Absent, or text (one value or a repeated parameter's values) of plain decimal digits. */
function isPlainIntegerText(value: unknown): boolean {
  const texts = Array.isArray(value) ? value : [value];
  return texts.every((text) => typeof text !== 'string' || PLAIN_INTEGER.test(text));
}
