import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv2020, type ErrorObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { mainCheckout } from './ucp-validator.js';

const REPOSITORY = fileURLToPath(new URL('../..', import.meta.url));
const RELEASE = 'shared/spec/acp-2026-04-17';
/** The release's JSON Schemas, inside it. */
const SCHEMAS = 'spec/2026-04-17/json-schema';
/** The release's OpenAPI documents, inside it: what clients and a validating proxy (Prism) check answers against. */
const OPENAPI = 'spec/2026-04-17/openapi';

/**
 * The ACP release (`../shared/spec/acp-2026-04-17`, beside the repository, as CI has it;
 * a git worktree looks beside its main checkout too). A fresh clone without `../shared`
 * runs the suite all the same: tests that need the release are skipped, saying why.
 */
export const ACP_RELEASE_DIR =
  [REPOSITORY, mainCheckout(REPOSITORY)]
    .filter((root): root is string => root !== undefined)
    .map((root) => path.resolve(root, '..', RELEASE))
    .find((dir) => existsSync(path.join(dir, SCHEMAS))) ?? path.resolve(REPOSITORY, '..', RELEASE);

/** The release's OpenAPI documents the tests validate answers against. */
export const ACP_DOCUMENTS = {
  checkout: 'openapi.agentic_checkout.yaml',
  delegatePayment: 'openapi.delegate_payment.yaml',
  cart: 'openapi.cart.yaml',
  /** The agent's receiver of order events: what the sandbox's order events are checked against (`WebhookEvent`). */
  webhook: 'openapi.agentic_checkout_webhook.yaml',
} as const;
export type AcpDocument = keyof typeof ACP_DOCUMENTS;

/** The release's schemas by file name (`schema.feed.json`...), each validating any of its `$defs`, and its OpenAPI documents. */
export interface AcpValidator {
  /** What is wrong with `data` as the definition `definition` of `schemaFile` (empty: valid). */
  errors(schemaFile: string, definition: string, data: unknown): string[];
  /**
   * What is wrong with an answer of `operationId` with `status`, against the response the
   * document declares for it (the exact status, else its range such as `4XX`). An error
   * status it does not list is checked against its `Error`: the release lists few errors
   * for some operations (retrieve: 404 only), and those answered all the same keep its shape.
   */
  answerErrors(document: AcpDocument, operationId: string, status: number, body: unknown): string[];
  /** What is wrong with `data` as a component schema of the document (`Error`, `CheckoutSession`...). */
  componentErrors(document: AcpDocument, name: string, data: unknown): string[];
  /** What is wrong with `value` as the header parameter `name` of `operationId` (`Merchant-Signature` of postOrderEvents). */
  headerErrors(document: AcpDocument, operationId: string, name: string, value: unknown): string[];
}

/** The validator, or why the tests that need it are skipped (`it(name, { skip }, ...)`). */
export type AcpValidatorUse = { validator: AcpValidator; skip: false } | { validator: undefined; skip: string };

type Json = Record<string, any>;

let loaded: AcpValidatorUse | undefined;

/**
 * Ajv 2020 with formats over every JSON Schema and OpenAPI document of the release,
 * loaded once per process. Each schema file is a bundle of `$defs` with an `$id` of its
 * own, so a definition is reached as `<$id>#/$defs/<name>`; each OpenAPI document is
 * added whole under an `$id` of its own, and its components are reached in it.
 */
export function acpValidator(): AcpValidatorUse {
  loaded ??= load();
  return loaded;
}

function load(): AcpValidatorUse {
  const dir = path.join(ACP_RELEASE_DIR, SCHEMAS);
  if (!existsSync(dir)) return { validator: undefined, skip: `needs ../${RELEASE} beside the repository (CI has it)` };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const schemas = new Map<string, Json>();
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.json'))) schemas.set(file, JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as Json);
  const ids = new Map([...schemas].map(([file, schema]) => [file, schema.$id as string]));
  for (const schema of schemas.values()) ajv.addSchema(pointedAtIds(schema, ids));
  const documents = new Map<AcpDocument, Json>();
  for (const [name, file] of Object.entries(ACP_DOCUMENTS) as [AcpDocument, string][]) {
    const document = mergeAllOf(pointedAtIds(linkDocuments(parse(readFileSync(path.join(ACP_RELEASE_DIR, OPENAPI, file), 'utf8')) as Json), ids));
    documents.set(name, document);
    ajv.addSchema({ ...document, $id: openApiId(name) });
  }
  const messages = (errors: ErrorObject[] | null | undefined) => (errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? 'is invalid'} ${JSON.stringify(error.params)}`);
  const validateIn = (document: AcpDocument, schema: Json, data: unknown) => {
    const validate = ajv.compile(rebase(schema, openApiId(document)));
    return validate(data) ? [] : messages(validate.errors);
  };
  const componentErrors = (document: AcpDocument, name: string, data: unknown) => validateIn(document, { $ref: `#/components/schemas/${name}` }, data);
  return {
    skip: false,
    validator: {
      errors(schemaFile, definition, data) {
        const id = ids.get(schemaFile);
        if (id === undefined) throw new Error(`The release has no ${schemaFile}`);
        const validate = ajv.getSchema(`${id}#/$defs/${definition}`);
        if (!validate) throw new Error(`${schemaFile} defines no ${definition}`);
        return validate(data) ? [] : messages(validate.errors);
      },
      answerErrors(document, operationId, status, body) {
        const responses = operationOf(documents.get(document)!, operationId).responses as Json;
        let response = (responses[String(status)] ?? responses[`${String(status)[0]}XX`]) as Json | undefined;
        if (response === undefined) return status >= 400 ? componentErrors(document, 'Error', body) : [`${operationId} declares no ${status} answer`];
        if (typeof response.$ref === 'string') response = resolve(documents.get(document)!, response.$ref);
        const schema = response.content?.['application/json']?.schema as Json | undefined;
        return schema === undefined ? [`${operationId} ${status} declares no JSON body`] : validateIn(document, schema, body);
      },
      componentErrors,
      headerErrors(document, operationId, name, value) {
        const parameters = (operationOf(documents.get(document)!, operationId).parameters ?? []) as Json[];
        const parameter = parameters.find((entry) => entry.in === 'header' && String(entry.name).toLowerCase() === name.toLowerCase());
        if (parameter === undefined) return [`${operationId} declares no header ${name}`];
        return validateIn(document, parameter.schema as Json, value);
      },
    },
  };
}

/**
 * A reference to another document of the release (the webhook document's order is
 * `./openapi.agentic_checkout.yaml#/components/schemas/Order`) pointed at that document
 * as added here.
 */
function linkDocuments(document: Json): Json {
  let text = JSON.stringify(document);
  for (const [name, file] of Object.entries(ACP_DOCUMENTS) as [AcpDocument, string][]) text = text.replaceAll(`"$ref":"./${file}#`, `"$ref":"${openApiId(name)}#`);
  return JSON.parse(text) as Json;
}

const openApiId = (document: AcpDocument) => `acp-openapi-${document}`;

function operationOf(document: Json, operationId: string): Json {
  for (const item of Object.values(document.paths as Json)) {
    for (const operation of Object.values(item as Json)) {
      if ((operation as Json).operationId === operationId) return operation as Json;
    }
  }
  throw new Error(`The release's document has no operation ${operationId}`);
}

function resolve(document: Json, ref: string): Json {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: Json, key) => node[key] as Json, document);
}

/**
 * References to another file of the release (`schema.agentic_checkout.json#/$defs/LineItem`
 * in schema.cart.json, `../json-schema/schema.cart.json#/$defs/Cart` in openapi.cart.yaml)
 * pointed at that file's `$id`: the files' `$id`s are not their names, so Ajv cannot
 * resolve such a reference against the `$id` of the file that makes it.
 */
function pointedAtIds(schema: Json, ids: ReadonlyMap<string, string>): Json {
  return JSON.parse(
    JSON.stringify(schema).replace(/"\$ref":"(?:\.\.\/json-schema\/)?(schema\.[\w.]+\.json)#/g, (reference, file: string) => {
      const id = ids.get(file);
      if (id === undefined) throw new Error(`The release has no ${file}, which a $ref names`);
      return `"$ref":"${id}#`;
    }),
  ) as Json;
}

/** Local `#/...` references of a schema taken out of its document, pointed back into it. */
function rebase(schema: Json, id: string): Json {
  return JSON.parse(JSON.stringify(schema).replace(/"\$ref":"#\//g, `"$ref":"${id}#/`)) as Json;
}

/**
 * Each component schema that is an `allOf` of objects, merged into one object (their
 * properties and required fields together). Read literally, the release's
 * CheckoutSessionWithOrder admits no value: it is CheckoutSessionBase, which allows no
 * field beyond its own (additionalProperties: false) and has no `order`, all of a
 * schema that requires `order`. Prism merges `allOf` before validating, so a completed
 * session with its order passes it; the tests read the release as Prism does.
 */
function mergeAllOf(document: Json): Json {
  const schemas = document.components.schemas as Record<string, Json>;
  const resolved = (member: Json): Json => (typeof member.$ref === 'string' ? schemas[member.$ref.split('/').pop()!]! : member);
  const local = (member: Json) => typeof member.$ref !== 'string' || member.$ref.startsWith('#/');
  for (const [name, schema] of Object.entries(schemas)) {
    // An allOf of another document's schema (the webhook's EventDataOrder: the checkout's Order) is validated as it is.
    if (!Array.isArray(schema.allOf) || !(schema.allOf as Json[]).every(local)) continue;
    const members = (schema.allOf as Json[]).map(resolved);
    if (members.some((member) => member.allOf !== undefined || (member.type !== undefined && member.type !== 'object'))) continue;
    const { allOf: _allOf, ...rest } = schema;
    schemas[name] = {
      ...Object.assign({}, ...members),
      ...rest,
      type: 'object',
      properties: Object.assign({}, ...members.map((member) => member.properties ?? {})),
      required: [...new Set(members.flatMap((member) => (member.required as string[] | undefined) ?? []))],
    };
  }
  return document;
}

/** Asserts that `data` is valid as the release's `definition` of `schemaFile`, showing what is wrong. */
export function assertAcpValid(validator: AcpValidator, schemaFile: string, definition: string, data: unknown, what: string): void {
  const errors = validator.errors(schemaFile, definition, data);
  if (errors.length > 0) throw new Error(`${what} is not a valid ACP ${definition} (${schemaFile}): ${errors.slice(0, 10).join('; ')}`);
}
