/**
 * Values found by a string key each of them carries (a variant by its id or its SKU, a
 * product by its id or its handle, a search slot by its product's id), in under half a
 * `Map`'s memory. A `Map` keeps three pointers per entry and half a bucket, at a capacity
 * that doubles: 28 bytes per slot, up to 56 per entry, which for the variants of 100,000
 * products (540,803 of them, two lookups) came to 56 MB of the read model's 365
 * (docs/deploy.md, Memory). Here each entry is one pointer in a dense list of values, and
 * a slot of 5 bytes (its position and a byte of its key's hash) in an open-addressed table
 * 35% to 70% full: 15 to 26 bytes an entry. The keys are not stored: each is read from its
 * value (`keyOf`), which holds it or leads to it.
 */
export interface ReadonlyKeyedIndex<T> {
  readonly size: number;
  get(key: string): T | undefined;
  has(key: string): boolean;
}

export class KeyedIndex<T> implements ReadonlyKeyedIndex<T> {
  /** The values, at the positions the table points to; freed positions are reused. */
  #values: (T | undefined)[] = [];
  readonly #freePositions: number[] = [];
  /** Per slot: EMPTY, REMOVED, or a value's position plus one. A power of two long. */
  #slots = new Int32Array(MIN_SLOTS);
  /**
   * Per slot, the top byte of its key's hash: probing compares it first, and asks a value
   * for its key only when it matches. Keys made in sequence share long beginnings
   * (`variant_01a21c4cff0d298aa1…`), which a string comparison reads before it differs.
   */
  #tags = new Uint8Array(MIN_SLOTS);
  /** Slots that hold a value or REMOVED: probing passes over both. */
  #occupied = 0;
  #size = 0;

  constructor(private readonly keyOf: (value: T) => string) {}

  get size(): number {
    return this.#size;
  }

  /** The table's slots, 5 bytes each: it grows with the values held, not with the values ever held. */
  get capacity(): number {
    return this.#slots.length;
  }

  get(key: string): T | undefined {
    const slot = this.#find(key, hash(key));
    return slot < 0 ? undefined : this.#values[this.#slots[slot]! - 1];
  }

  has(key: string): boolean {
    return this.#find(key, hash(key)) >= 0;
  }

  /** Adds the value under its key, replacing the value that had the key. */
  set(value: T): void {
    const key = this.keyOf(value);
    const keyHash = hash(key);
    const found = this.#find(key, keyHash);
    if (found >= 0) {
      this.#values[this.#slots[found]! - 1] = value;
      return;
    }
    if ((this.#occupied + 1) / this.#slots.length > MAX_LOAD) this.#resize(this.#size + 1);
    const position = this.#freePositions.pop() ?? this.#values.push(undefined) - 1;
    this.#values[position] = value;
    const mask = this.#slots.length - 1;
    let slot = keyHash & mask;
    // A removed slot is reused; an empty one is only reached when none was passed.
    while (this.#slots[slot]! > 0) slot = (slot + 1) & mask;
    if (this.#slots[slot] === EMPTY) this.#occupied++;
    this.#slots[slot] = position + 1;
    this.#tags[slot] = tagOf(keyHash);
    this.#size++;
  }

  /**
   * Removes the value, when it is the one its key finds (not one that took the key from
   * it since); answers whether it was.
   */
  delete(value: T): boolean {
    const key = this.keyOf(value);
    const slot = this.#find(key, hash(key));
    if (slot < 0 || this.#values[this.#slots[slot]! - 1] !== value) return false;
    const position = this.#slots[slot]! - 1;
    this.#values[position] = undefined;
    this.#freePositions.push(position);
    this.#slots[slot] = REMOVED;
    this.#size--;
    return true;
  }

  /** The slot holding the key's value, or -1. Only the values whose tag matches are asked their key. */
  #find(key: string, keyHash: number): number {
    const slots = this.#slots;
    const tag = tagOf(keyHash);
    const mask = slots.length - 1;
    for (let slot = keyHash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]!;
      if (entry === EMPTY) return -1;
      if (entry !== REMOVED && this.#tags[slot] === tag && this.keyOf(this.#values[entry - 1]!) === key) return slot;
    }
  }

  /** A table for `size` values at most half as full as MAX_LOAD (it grows or shrinks to fit), without removed slots; the dense list is compacted too. */
  #resize(size: number): void {
    let length = MIN_SLOTS;
    while (size / length > MAX_LOAD / 2) length *= 2;
    const values = this.#values.filter((value): value is T => value !== undefined);
    this.#values = values;
    this.#freePositions.length = 0;
    this.#slots = new Int32Array(length);
    this.#tags = new Uint8Array(length);
    const mask = length - 1;
    for (let position = 0; position < values.length; position++) {
      const keyHash = hash(this.keyOf(values[position]!));
      let slot = keyHash & mask;
      while (this.#slots[slot] !== EMPTY) slot = (slot + 1) & mask;
      this.#slots[slot] = position + 1;
      this.#tags[slot] = tagOf(keyHash);
    }
    this.#occupied = values.length;
  }
}

const EMPTY = 0;
const REMOVED = -1;
const MIN_SLOTS = 16;
/** Linear probing stays short below it: about 2 slots read to find a key, 6 to miss one. */
const MAX_LOAD = 0.7;

const tagOf = (keyHash: number) => keyHash >>> 24;

/** FNV-1a over the UTF-16 code units: spreads keys that differ only at the end (ids made in sequence). */
function hash(key: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193);
  return hash;
}
