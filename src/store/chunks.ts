/** Values per `in (...)` list and rows per multi-row statement: well under SQLite's and PostgreSQL's bound-parameter limits. */
export const ROWS_PER_STATEMENT = 400;

/** `items` in consecutive slices of at most `size`. */
export function* chunks<T>(items: readonly T[], size = ROWS_PER_STATEMENT): Generator<T[]> {
  for (let start = 0; start < items.length; start += size) yield items.slice(start, start + size);
}
