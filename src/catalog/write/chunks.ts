/** Rows per statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
export const CHUNK = 400;

export function* chunks<T>(items: readonly T[], size = CHUNK): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
