/**
 * A set of slots (small non-negative integers: the search index's product numbers) as one
 * bit each, in a typed array that grows to the highest slot held. For a term in many
 * products it takes a fraction of a Set's memory: a Set keeps 20 to 40 bytes a slot, this
 * an eighth of a byte for every slot up to the highest, held or not. The search index keeps
 * the slots of its common words and large facets in them (`Slots`, below).
 */
export class SlotBitmap {
  #words: Uint32Array;
  #size = 0;

  /** @param slots Room for slots below this from the start (it grows past it as needed). */
  constructor(slots: number) {
    this.#words = new Uint32Array(Math.ceil(slots / 32));
  }

  get size(): number {
    return this.#size;
  }

  /** The slots below this are held without growing: a bit each, what it costs beside its own object. */
  get capacity(): number {
    return this.#words.length * 32;
  }

  /** The slots held, in ascending order. */
  toArray(): number[] {
    const slots: number[] = [];
    this.forEach((slot) => slots.push(slot));
    return slots;
  }

  has(slot: number): boolean {
    return ((this.#words[slot >>> 5] ?? 0) & bit(slot)) !== 0;
  }

  add(slot: number): this {
    const word = slot >>> 5;
    if (word >= this.#words.length) {
      // Grows by half again at least, so that slots added one after another copy it rarely.
      const words = new Uint32Array(Math.max(word + 1, Math.ceil(this.#words.length * 1.5)));
      words.set(this.#words);
      this.#words = words;
    }
    if ((this.#words[word]! & bit(slot)) === 0) {
      this.#words[word]! |= bit(slot);
      this.#size++;
    }
    return this;
  }

  /** Removes the slot; answers whether it was held. */
  delete(slot: number): boolean {
    if (!this.has(slot)) return false;
    this.#words[slot >>> 5]! &= ~bit(slot);
    this.#size--;
    return true;
  }

  /** Calls `visit` with each slot held, in ascending order. */
  forEach(visit: (slot: number) => void): void {
    const words = this.#words;
    for (let word = 0; word < words.length; word++) {
      let bits = words[word]!;
      while (bits !== 0) {
        // The lowest bit set, then cleared.
        const low = bits & -bits;
        visit(word * 32 + 31 - Math.clz32(low));
        bits ^= low;
      }
    }
  }
}

const bit = (slot: number) => 1 << (slot & 31);

/**
 * The slots of the products having a word, or in a facet. Most words are in a few
 * products (a handle's numbers, rare words): their slots are kept in an array, in no
 * order, whose removal (a product changed or withdrawn) finds the slot and moves the last
 * one into its place. Slots of more than a 32nd of the products (a common word, a large
 * category) move to a bitmap, at most half the array's bytes, whose removal is immediate.
 * Sets, which these replaced, took 20 to 40 bytes a slot: 38 MB more at 100,000 products
 * (docs/deploy.md, Memory).
 */
export type Slots = number[] | SlotBitmap;

/** An array this short stays an array, however few the products: a bitmap costs a few hundred bytes before its first bit. */
const MIN_SLOTS_IN_BITMAP = 64;

/**
 * `slots` with `slot` added (a new array, or the same one changed, or a bitmap it became),
 * for a catalog of `slotCount` slots. A bitmap that would grow while holding less than a
 * 32nd of the slots becomes an array again: while a full build indexes the catalog, the
 * slots grow from none, and a word common among the first thousand products may be rare
 * among all of them.
 */
export function withSlot(slots: Slots | undefined, slot: number, slotCount: number): Slots {
  if (slots === undefined) return [slot];
  if (!Array.isArray(slots)) {
    if (slot < slots.capacity || !sparse(slots.size + 1, slotCount)) return slots.add(slot);
    const array = slots.toArray();
    array.push(slot);
    return array;
  }
  if (sparse(slots.length, slotCount)) {
    slots.push(slot);
    return slots;
  }
  const bitmap = new SlotBitmap(slotCount);
  for (const held of slots) bitmap.add(held);
  return bitmap.add(slot);
}

/** Whether so many slots of a catalog of `slotCount` take fewer bytes as an array than as a bitmap. */
const sparse = (count: number, slotCount: number) => count < Math.max(MIN_SLOTS_IN_BITMAP, slotCount >>> 5);

/** `slots` without `slot`; undefined once none is left. */
export function withoutSlot(slots: Slots | undefined, slot: number): Slots | undefined {
  if (slots === undefined) return undefined;
  if (!Array.isArray(slots)) return slots.delete(slot) && slots.size === 0 ? undefined : slots;
  const at = slots.indexOf(slot);
  if (at >= 0) {
    slots[at] = slots.at(-1)!;
    slots.pop();
  }
  return slots.length === 0 ? undefined : slots;
}

export function forEachSlot(slots: Slots, visit: (slot: number) => void): void {
  if (Array.isArray(slots)) for (const slot of slots) visit(slot);
  else slots.forEach(visit);
}
