import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { KeyedIndex } from '../../src/catalog/read-model/keyed-index.js';

interface Item {
  key: string;
  n: number;
}

const item = (key: string, n = 0): Item => ({ key, n });
const newIndex = () => new KeyedIndex<Item>((value) => value.key);

describe('KeyedIndex', () => {
  it('finds each value by its key, and nothing by a key it does not hold', () => {
    const index = newIndex();
    const a = item('a');
    const b = item('b');
    index.set(a);
    index.set(b);
    assert.equal(index.get('a'), a);
    assert.equal(index.get('b'), b);
    assert.equal(index.get('c'), undefined);
    assert.equal(index.has('a'), true);
    assert.equal(index.has('c'), false);
    assert.equal(index.size, 2);
  });

  it('replaces the value of a key it holds, keeping one entry', () => {
    const index = newIndex();
    index.set(item('a', 1));
    const replacement = item('a', 2);
    index.set(replacement);
    assert.equal(index.get('a'), replacement);
    assert.equal(index.size, 1);
  });

  it('removes a value only when it is the one its key finds', () => {
    const index = newIndex();
    const old = item('sku-1', 1);
    const taker = item('sku-1', 2);
    index.set(old);
    index.set(taker);
    // The key moved to another value (another product took the SKU): removing the old one leaves it.
    assert.equal(index.delete(old), false);
    assert.equal(index.get('sku-1'), taker);
    assert.equal(index.delete(taker), true);
    assert.equal(index.get('sku-1'), undefined);
    assert.equal(index.delete(taker), false);
    assert.equal(index.size, 0);
  });

  it('agrees with a Map through 200,000 random sets and removals over 20,000 keys that differ only at the end', () => {
    const index = newIndex();
    const map = new Map<string, Item>();
    // Deterministic: the same sequence each run.
    let seed = 7;
    const random = () => ((seed = Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0) / 2 ** 32;
    for (let step = 0; step < 200_000; step++) {
      const key = `variant_01a21c4cff0d298aa15b${(Math.floor(random() * 20_000)).toString(16).padStart(4, '0')}`;
      const known = map.get(key);
      if (known && random() < 0.5) {
        assert.equal(index.delete(known), true);
        map.delete(key);
      } else {
        const value = item(key, step);
        index.set(value);
        map.set(key, value);
      }
    }
    assert.equal(index.size, map.size);
    for (const [key, value] of map) assert.equal(index.get(key), value);
    for (let n = 0; n < 20_000; n++) {
      const key = `variant_01a21c4cff0d298aa15b${n.toString(16).padStart(4, '0')}`;
      assert.equal(index.has(key), map.has(key));
    }
  });

  it('holds keys of any characters, the empty one included', () => {
    const index = newIndex();
    const keys = ['', 'é', 'Ünïcødé 🎁', 'a\u0000b', 'x'.repeat(10_000)];
    for (const key of keys) index.set(item(key));
    for (const key of keys) assert.equal(index.get(key)?.key, key);
    assert.equal(index.get('a'), undefined);
  });

  it('reuses the room of removed values: churn at a steady size does not grow it', () => {
    const index = newIndex();
    const live: Item[] = [];
    for (let n = 0; n < 1000; n++) live.push(item(`k${n}`));
    for (const value of live) index.set(value);
    const before = index.capacity;
    for (let round = 0; round < 100; round++) {
      for (let n = 0; n < 1000; n++) {
        index.delete(live[n]!);
        live[n] = item(`k${round}-${n}`);
        index.set(live[n]!);
      }
    }
    assert.equal(index.size, 1000);
    assert.equal(index.capacity, before);
    for (const value of live) assert.equal(index.get(value.key), value);
  });
});
