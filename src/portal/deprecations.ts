/**
 * What the OpenAPI document marks deprecated, read from the document itself (the one
 * `/openapi.json` serves), so the changelog cannot drift from the contract: operations,
 * parameters and schema properties with `deprecated: true`, and the Sunset date a
 * deprecated operation's answers document as their `Sunset` header's `const`.
 */
export interface Deprecation {
  kind: 'operation' | 'parameter' | 'property';
  /** What is deprecated: `POST /path`, a parameter of an operation, or `Schema.property.path`. */
  subject: string;
  /** The operation the deprecation belongs to, when it belongs to one. */
  operation?: string;
  description: string;
  /** The operation's anchor in the API reference (`#/tag/operationId`), when it has both. */
  reference?: string;
  /** The HTTP-date after which it may be removed, when the document states one. */
  sunset?: string;
}

type Json = Record<string, unknown>;

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

const isObject = (value: unknown): value is Json => typeof value === 'object' && value !== null && !Array.isArray(value);
const text = (value: unknown): string => (typeof value === 'string' ? value : '');
const entries = (value: unknown): [string, unknown][] => (isObject(value) ? Object.entries(value) : []);

/** Every deprecation the document declares, operations first (in path order), then component properties. */
export function deprecationsOf(document: unknown): Deprecation[] {
  const found: Deprecation[] = [];
  const doc = isObject(document) ? document : {};
  for (const [path, item] of entries(doc.paths)) {
    for (const method of METHODS) {
      const operation = isObject(item) ? item[method] : undefined;
      if (!isObject(operation)) continue;
      const name = `${method.toUpperCase()} ${path}`;
      const sunset = sunsetOf(operation);
      if (operation.deprecated === true) {
        const reference = referenceOf(operation);
        found.push({ kind: 'operation', subject: name, description: text(operation.summary), ...(reference && { reference }), ...(sunset && { sunset }) });
      }
      for (const parameter of Array.isArray(operation.parameters) ? operation.parameters : []) {
        if (!isObject(parameter)) continue;
        const schema = isObject(parameter.schema) ? parameter.schema : {};
        if (parameter.deprecated === true || schema.deprecated === true) {
          found.push({
            kind: 'parameter',
            subject: `${text(parameter.in)} parameter ${text(parameter.name)}`,
            operation: name,
            description: text(parameter.description) || text(schema.description),
          });
        }
      }
      for (const [mediaType, content] of entries(isObject(operation.requestBody) ? operation.requestBody.content : undefined)) {
        if (isObject(content)) found.push(...deprecatedProperties(content.schema, `request body (${mediaType})`, name));
      }
      for (const [status, response] of entries(operation.responses)) {
        for (const [mediaType, content] of entries(isObject(response) ? response.content : undefined)) {
          if (isObject(content)) found.push(...deprecatedProperties(content.schema, `${status} answer (${mediaType})`, name));
        }
      }
    }
  }
  for (const [name, schema] of entries(isObject(doc.components) ? doc.components.schemas : undefined)) {
    found.push(...deprecatedProperties(schema, name));
  }
  return found;
}

/** Swagger UI's deep link to an operation: its first tag and its operationId. */
function referenceOf(operation: Json): string | undefined {
  const tag = Array.isArray(operation.tags) ? text(operation.tags[0]) : '';
  const id = text(operation.operationId);
  return tag && id ? `#/${tag}/${id}` : undefined;
}

/** The `const` of the Sunset header an answer of the operation documents, if any. */
function sunsetOf(operation: Json): string | undefined {
  for (const [, response] of entries(operation.responses)) {
    for (const [header, definition] of entries(isObject(response) ? response.headers : undefined)) {
      if (header.toLowerCase() !== 'sunset' || !isObject(definition) || !isObject(definition.schema)) continue;
      const sunset = text(definition.schema.const);
      if (sunset) return sunset;
    }
  }
  return undefined;
}

/** Properties marked deprecated anywhere in `schema` (nested objects, array items, unions), named by their path under `root`. */
function deprecatedProperties(schema: unknown, root: string, operation?: string): Deprecation[] {
  const found: Deprecation[] = [];
  const visit = (node: unknown, path: string) => {
    if (!isObject(node)) return;
    for (const [property, definition] of entries(node.properties)) {
      const at = `${path}.${property}`;
      if (isObject(definition) && definition.deprecated === true) {
        found.push({ kind: 'property', subject: at, ...(operation && { operation }), description: text(definition.description) });
      }
      visit(definition, at);
    }
    visit(node.items, `${path}[]`);
    for (const keyword of ['anyOf', 'oneOf', 'allOf'] as const) {
      for (const branch of Array.isArray(node[keyword]) ? node[keyword] : []) visit(branch, path);
    }
  };
  visit(schema, root);
  return found;
}
