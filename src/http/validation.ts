import { Ajv, type Options } from 'ajv';
import addFormats from 'ajv-formats';
import type { FastifySchemaCompiler } from 'fastify';

type BuildValidator = (sharedSchemas: Record<string, unknown>) => FastifySchemaCompiler<unknown>;

/**
 * Route validation with two Ajv instances. Query strings, path parameters and headers
 * arrive as text, so they are coerced (`limit=5` is the integer 5, `limit=1.5` is still
 * rejected). Bodies are JSON and are validated as sent: `"quantity": "2"` is an error,
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
    return ({ schema, httpPart }) => (httpPart === 'body' ? forBody : forText).compile(schema as object);
  };
}

function createAjv(options: Options): Ajv {
  const ajv = new Ajv({
    ...options,
    useDefaults: true,
    removeAdditional: false,
    allErrors: false,
    discriminator: true,
    strict: false,
  });
  addFormats.default(ajv);
  return ajv;
}
