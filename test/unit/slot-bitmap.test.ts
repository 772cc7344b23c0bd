import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SlotBitmap } from '../../src/catalog/read-model/slot-bitmap.js';

const slotsOf = (bitmap: SlotBitmap) => {
  const slots: number[] = [];
  bitmap.forEach((slot) => slots.push(slot));
  return slots;
};

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
    // An eighth of a byte per slot up to the highest, and some room to grow.
    assert.ok(bitmap.byteLength >= 100_001 / 8 && bitmap.byteLength < 100_001 / 8 + 8, String(bitmap.byteLength));
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
