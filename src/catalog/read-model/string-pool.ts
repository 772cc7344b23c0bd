/**
 * Shares equal strings between the catalog's objects: every row a query returns carries
 * its own copy of "EUR" or "500 g", which at 600,000 variants adds up to tens of
 * megabytes. Bounded: when full it starts over (strings already shared stay shared), so
 * a stream of ever-new values cannot grow it without end.
 */
export class StringPool {
  readonly #strings = new Map<string, string>();

  constructor(private readonly capacity: number) {}

  intern(value: string): string {
    const known = this.#strings.get(value);
    if (known !== undefined) return known;
    if (this.#strings.size >= this.capacity) this.#strings.clear();
    this.#strings.set(value, value);
    return value;
  }
}
