/**
 * Strings mapped to numbers, held in a few typed arrays rather than as JavaScript strings
 * in a `Map`: each key's UTF-8 bytes one after another in one buffer, where it starts
 * and its number in two arrays, and an open-addressed table of entries (4 bytes a slot,
 * plus a byte of the key's hash that probing compares before the bytes). A `Map` of
 * short keys costs about 100 bytes an entry (the string's header and characters, and
 * the map's entry and buckets); here it is the key's bytes and about 30 more (up to
 * twice that right after the arrays have doubled). Entries
 * are only added or renumbered, never removed. What needs it: a catalog import keeps
 * every SKU and handle of the file while it checks it, 5.8 million SKUs for a million
 * generated products. Keys are compared as UTF-8, so a key holding half of a surrogate
 * pair reads as one holding U+FFFD instead: such keys are refused before they get here.
 */
export class CompactStringMap {
  /** The keys' UTF-8 bytes, entry after entry; `#used` of them are taken. */
  #bytes = new Uint8Array(INITIAL_BYTES);
  #used = 0;
  /** Entry `e`'s key is `#bytes[#starts[e] .. #starts[e + 1])`: one more start than entries. */
  #starts = new Uint32Array(MIN_SLOTS + 1);
  #values = new Float64Array(MIN_SLOTS);
  #size = 0;
  /** Per slot: 0 (empty) or an entry plus one. A power of two long, at most MAX_LOAD full. */
  #slots = new Int32Array(MIN_SLOTS);
  #tags = new Uint8Array(MIN_SLOTS);
  /** The key being looked up, encoded once per call. */
  #key = new Uint8Array(64);
  #keyLength = 0;

  get size(): number {
    return this.#size;
  }

  /** Bytes held by the arrays, slack included: what the map costs beyond the object itself. */
  get byteLength(): number {
    return this.#bytes.byteLength + this.#starts.byteLength + this.#values.byteLength + this.#slots.byteLength + this.#tags.byteLength + this.#key.byteLength;
  }

  get(key: string): number | undefined {
    const slot = this.#find(this.#encode(key));
    return slot < 0 ? undefined : this.#values[this.#slots[slot]! - 1];
  }

  has(key: string): boolean {
    return this.#find(this.#encode(key)) >= 0;
  }

  /** Maps the key to the value, adding the key or renumbering it. */
  set(key: string, value: number): this {
    const keyHash = this.#encode(key);
    const found = this.#find(keyHash);
    if (found >= 0) {
      this.#values[this.#slots[found]! - 1] = value;
      return this;
    }
    if ((this.#size + 1) / this.#slots.length > MAX_LOAD) this.#growSlots();
    const entry = this.#size;
    if (entry === this.#values.length) this.#growEntries();
    if (this.#used + this.#keyLength > this.#bytes.length) this.#bytes = grown(this.#bytes, this.#used + this.#keyLength);
    this.#bytes.set(this.#key.subarray(0, this.#keyLength), this.#used);
    this.#used += this.#keyLength;
    this.#starts[entry + 1] = this.#used;
    this.#values[entry] = value;
    this.#place(entry, keyHash);
    this.#size++;
    return this;
  }

  /** The keys, in the order they were first set. */
  *keys(): IterableIterator<string> {
    for (let entry = 0; entry < this.#size; entry++) yield decoder.decode(this.#bytes.subarray(this.#starts[entry], this.#starts[entry + 1]));
  }

  [Symbol.iterator](): IterableIterator<string> {
    return this.keys();
  }

  /** Encodes the key into `#key`; answers its hash. */
  #encode(key: string): number {
    // At most 3 bytes per UTF-16 code unit.
    if (key.length * 3 > this.#key.length) this.#key = new Uint8Array(key.length * 3);
    this.#keyLength = encoder.encodeInto(key, this.#key).written;
    return hashOf(this.#key, 0, this.#keyLength);
  }

  /** The slot of the entry whose key is `#key`, or -1. */
  #find(keyHash: number): number {
    const slots = this.#slots;
    const mask = slots.length - 1;
    const tag = keyHash >>> 24;
    for (let slot = keyHash & mask; ; slot = (slot + 1) & mask) {
      const entry = slots[slot]!;
      if (entry === 0) return -1;
      if (this.#tags[slot] === tag && this.#holdsKey(entry - 1)) return slot;
    }
  }

  #holdsKey(entry: number): boolean {
    const start = this.#starts[entry]!;
    if (this.#starts[entry + 1]! - start !== this.#keyLength) return false;
    for (let i = 0; i < this.#keyLength; i++) if (this.#bytes[start + i] !== this.#key[i]) return false;
    return true;
  }

  #place(entry: number, keyHash: number): void {
    const mask = this.#slots.length - 1;
    let slot = keyHash & mask;
    while (this.#slots[slot] !== 0) slot = (slot + 1) & mask;
    this.#slots[slot] = entry + 1;
    this.#tags[slot] = keyHash >>> 24;
  }

  /** Room for twice the entries: values, and one start more. */
  #growEntries(): void {
    const values = new Float64Array(this.#values.length * 2);
    values.set(this.#values);
    this.#values = values;
    const starts = new Uint32Array(values.length + 1);
    starts.set(this.#starts);
    this.#starts = starts;
  }

  /** Twice the slots, every entry placed again by its key's hash. */
  #growSlots(): void {
    this.#slots = new Int32Array(this.#slots.length * 2);
    this.#tags = new Uint8Array(this.#slots.length);
    for (let entry = 0; entry < this.#size; entry++) this.#place(entry, hashOf(this.#bytes, this.#starts[entry]!, this.#starts[entry + 1]!));
  }
}

const INITIAL_BYTES = 1024;
const MIN_SLOTS = 16;
/** Linear probing stays short below it. */
const MAX_LOAD = 0.7;

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** FNV-1a over `bytes[start .. end)`: spreads keys that differ only at the end (SKUs made in sequence). */
function hashOf(bytes: Uint8Array, start: number, end: number): number {
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, 0x01000193);
  return hash;
}

/** A copy of `bytes` with room for at least `needed`, doubling. */
function grown(bytes: Uint8Array<ArrayBuffer>, needed: number): Uint8Array<ArrayBuffer> {
  let length = bytes.length * 2;
  while (length < needed) length *= 2;
  const copy = new Uint8Array(length);
  copy.set(bytes);
  return copy;
}
