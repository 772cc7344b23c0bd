import { Ajv, type ErrorObject, type Options, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

type BuildValidator = (sharedSchemas: Record<string, unknown>) => FastifySchemaCompiler<unknown>;

/**
 * Route validation with two Ajv instances. Query strings, path parameters and headers
 * arrive as text, so they are coerced (`limit=5` is the integer 5, `limit=1.5` is still
 * rejected); an integer or number must be written as plain decimal digits (a number may
 * have a fraction), since Ajv's coercion (JavaScript's `Number`) would also read `0x10`,
 * `1e1` and ` 10` as numbers. Bodies
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
    // Each error carries the schema it broke, which the message describes (schema-errors.ts),
    // and the data it checked (a header error, every header): never log `error.validation`.
    verbose: true,
    discriminator: true,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}

/** Optional minus sign, then digits without leading zeros: how an integer field's text must look. */
const PLAIN_INTEGER = /^-?(0|[1-9][0-9]*)$/;
/** The same, with an optional fraction (`12.5`): how a number field's text must look. */
const PLAIN_DECIMAL = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?$/;

const TEXT_FORMS: Record<string, { form: RegExp; message: string }> = {
  integer: { form: PLAIN_INTEGER, message: 'must be an integer in plain decimal digits' },
  number: { form: PLAIN_DECIMAL, message: 'must be a number in plain decimal digits (e.g. 12.5)' },
};

interface TextValidator {
  (data: unknown): boolean;
  errors?: ErrorObject[] | null;
}

/** Checks the text of each top-level integer or number field before Ajv coerces it. */
function compileForText(ajv: Ajv, schema: object): ValidateFunction | TextValidator {
  const validate = ajv.compile(schema);
  const numericFields = numericPropertiesOf(schema);
  if (numericFields.length === 0) return validate;
  const validator: TextValidator = (data) => {
    const bad = numericFields.find(([name, type]) => !isPlainText((data as Record<string, unknown> | undefined)?.[name], TEXT_FORMS[type]!.form));
    if (bad !== undefined) {
      const [field, type] = bad;
      validator.errors = [
        {
          instancePath: `/${field}`,
          schemaPath: `#/properties/${field}/type`,
          keyword: 'type',
          params: { type },
          message: TEXT_FORMS[type]!.message,
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

/** The top-level fields of type integer or number, with their type. */
function numericPropertiesOf(schema: object): [string, string][] {
  const properties = (schema as { properties?: Record<string, { type?: unknown }> }).properties ?? {};
  return Object.entries(properties).flatMap(([name, { type }]) => (typeof type === 'string' && type in TEXT_FORMS ? [[name, type] as [string, string]] : []));
}

/** Absent, or text (one value or a repeated parameter's values) of the field's form. */
function isPlainText(value: unknown, form: RegExp): boolean {
  const texts = Array.isArray(value) ? value : [value];
  return texts.every((text) => typeof text !== 'string' || form.test(text));
}
