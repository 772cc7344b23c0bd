import { fromJsonSchema, type JsonSchemaType } from '@modelcontextprotocol/server';
import type { Static, TSchema } from 'typebox';

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

/** A TypeBox schema as an MCP tool schema, keeping its static type for the handler's arguments. */
export function toolSchema<T extends TSchema>(schema: T) {
  return fromJsonSchema<Static<T>>(schema as unknown as JsonSchemaType);
}
