/**
 * JSON for responses, with reuse: an immutable object passed through `reuseJson` is
 * serialised once, and every later response that contains it splices in that text.
 * Catalog pages are made of products rendered per market and shared between requests,
 * so most of a page is never serialised twice. Everything else is plain JSON.stringify.
 */
const known = new WeakMap<object, string>();

export function reuseJson<T extends object>(value: T): T {
  known.set(value, JSON.stringify(value));
  return value;
}

export function serializeJson(value: unknown): string {
  return write(value) ?? 'null';
}

function write(value: unknown): string | undefined {
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  const cached = known.get(value);
  if (cached !== undefined) return cached;
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => write(item) ?? 'null').join(',')}]`;
  const members: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    const text = write(member);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}
