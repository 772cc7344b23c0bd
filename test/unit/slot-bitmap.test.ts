import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { forEachSlot, SlotBitmap, withoutSlot, withSlot, type Slots } from '../../src/catalog/read-model/slot-bitmap.js';

const slotsOf = (bitmap: SlotBitmap) => bitmap.toArray();

describe('SlotBitmap', () => {
  it('holds each slot once and lists them in ascending order, the 32nd bit of a word included', () => {
    const bitmap = new SlotBitmap(64);
    for (const slot of [63, 0, 31, 32, 5, 31]) bitmap.add(slot);
    assert.equal(bitmap.size, 5);
    assert.deepEqual(slotsOf(bitmap), [0, 5, 31, 32, 63]);
    assert.equal(bitmap.has(31), true);
    assert.equal(bitmap.has(30), false);
  });

  it('removes a slot once, and answers whether it was held', () => {
    const bitmap = new SlotBitmap(10).add(3).add(4);
    assert.equal(bitmap.delete(3), true);
    assert.equal(bitmap.delete(3), false);
    assert.equal(bitmap.delete(1000), false);
    assert.equal(bitmap.size, 1);
    assert.deepEqual(slotsOf(bitmap), [4]);
  });

  it('grows past the slots it was made for, keeping what it held', () => {
    const bitmap = new SlotBitmap(32).add(1);
    bitmap.add(100_000);
    assert.deepEqual(slotsOf(bitmap), [1, 100_000]);
    assert.equal(bitmap.has(99_999), false);
    // A bit per slot up to the highest, and less than two words (64 slots) of room to grow.
    assert.ok(bitmap.capacity >= 100_001 && bitmap.capacity < 100_001 + 64, String(bitmap.capacity));
  });

  it('agrees with a Set through 100,000 random additions and removals', () => {
    const bitmap = new SlotBitmap(0);
    const set = new Set<number>();
    let seed = 11;
    const random = () => ((seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
    for (let step = 0; step < 100_000; step++) {
      const slot = Math.floor(random() * 5000);
      if (random() < 0.4) assert.equal(bitmap.delete(slot), set.delete(slot));
      else {
        bitmap.add(slot);
        set.add(slot);
      }
    }
    assert.equal(bitmap.size, set.size);
    assert.deepEqual(slotsOf(bitmap), [...set].sort((a, b) => a - b));
  });
});

describe('Slots: an array for a few slots, a bitmap for many', () => {
  const add = (slots: Slots | undefined, from: number, to: number, slotCount: number) => {
    for (let slot = from; slot < to; slot++) slots = withSlot(slots, slot, slotCount);
    return slots!;
  };
  const held = (slots: Slots | undefined) => {
    const list: number[] = [];
    if (slots) forEachSlot(slots, (slot) => list.push(slot));
    return list.sort((a, b) => a - b);
  };

  it('stays an array below 64 slots or a 32nd of the catalog, and becomes a bitmap past it, holding the same slots', () => {
    const few = add(undefined, 0, 64, 1000);
    assert.ok(Array.isArray(few));
    const many = add(few, 64, 65, 1000);
    assert.ok(many instanceof SlotBitmap);
    assert.deepEqual(held(many), Array.from({ length: 65 }, (_, slot) => slot));
    // In a catalog of 100,000 slots a 32nd is 3,125.
    assert.ok(Array.isArray(add(undefined, 0, 3125, 100_000)));
    assert.ok(add(undefined, 0, 3126, 100_000) instanceof SlotBitmap);
  });

  it('turns a bitmap that would grow while sparse back into an array: a word common among the first products, rare among all', () => {
    const early = add(undefined, 0, 100, 100);
    assert.ok(early instanceof SlotBitmap);
    const later = withSlot(early, 50_000, 50_001);
    assert.ok(Array.isArray(later));
    assert.deepEqual(held(later), [...Array.from({ length: 100 }, (_, slot) => slot), 50_000]);
  });

  it('removes slots from either, and answers undefined once none is left', () => {
    let slots: Slots | undefined = add(undefined, 0, 100, 100);
    for (let slot = 0; slot < 99; slot++) slots = withoutSlot(slots, slot);
    assert.deepEqual(held(slots), [99]);
    assert.equal(withoutSlot(slots, 99), undefined);
    let array: Slots | undefined = [3, 5];
    array = withoutSlot(array, 4);
    assert.deepEqual(held(array), [3, 5]);
    array = withoutSlot(withoutSlot(array, 3), 5);
    assert.equal(array, undefined);
  });
});
