/**
 * Shares equal strings, and equal lists of strings, between the catalog's objects: every
 * row a query returns carries its own copy of "EUR" or "500 g", and every variant its own
 * list of option values, which at 600,000 variants adds up to tens of megabytes (the lists
 * of option values alone took 33 MB at 100,000 products, docs/deploy.md, Memory). Bounded:
 * when full it starts over (what is already shared stays shared), so a stream of
 * ever-new values cannot grow it without end.
 */
export class StringPool {
  readonly #strings = new Map<string, string>();
  readonly #lists = new Map<string, readonly string[]>();

  constructor(private readonly capacity: number) {}

  intern(value: string): string {
    const known = this.#strings.get(value);
    if (known !== undefined) return known;
    if (this.#strings.size >= this.capacity) this.#strings.clear();
    this.#strings.set(value, value);
    return value;
  }

  /**
   * A frozen list equal to `values`, shared with every other list of the same strings in
   * the same order, its strings interned; the one empty list for an empty one. For lists
   * that repeat across products and variants (option names and values, categories), not
   * for mostly unique ones, whose keys would cost more than sharing saves.
   */
  internList(values: readonly string[]): readonly string[] {
    if (values.length === 0) return EMPTY;
    // Unambiguous whatever the strings hold, unlike a join.
    const key = JSON.stringify(values);
    const known = this.#lists.get(key);
    if (known !== undefined) return known;
    if (this.#lists.size >= this.capacity) this.#lists.clear();
    const list = Object.freeze(values.map((value) => this.intern(value)));
    this.#lists.set(key, list);
    return list;
  }
}

const EMPTY: readonly string[] = Object.freeze([]);
