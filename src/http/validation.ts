import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

/**
 * Route validation with two Ajv instances. Query strings, path parameters and headers
 * arrive as text, so they are coerced (`limit=5` is the integer 5, `limit=1.5` is still
 * rejected). Bodies are JSON and are validated as sent: `"quantity": "2"` is an error,
 * and extra properties are rejected rather than silently stripped.
 */
export function buildValidatorCompiler(sharedSchemas: Record<string, unknown>): FastifySchemaCompiler<unknown> {
  const forText = createAjv({ coerceTypes: 'array' }, sharedSchemas);
  const forBody = createAjv({ coerceTypes: false }, sharedSchemas);
  return ({ schema, httpPart }) => (httpPart === 'body' ? forBody : forText).compile(schema as object);
}

function createAjv(options: Options, sharedSchemas: Record<string, unknown>): Ajv {
  const ajv = new Ajv({
    ...options,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    discriminator: true,
    strict: false,
  });
  addFormats.default(ajv);
  for (const schema of Object.values(sharedSchemas)) ajv.addSchema(schema as object);
  return ajv;
}
