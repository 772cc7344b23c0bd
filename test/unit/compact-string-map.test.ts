import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CompactStringMap } from '../../src/lib/compact-string-map.js';

describe('CompactStringMap', () => {
  it('answers the number of each key it holds, and nothing for a key it does not', () => {
    const map = new CompactStringMap().set('BV-RIS-CAR-500', 3).set('BV-RIS-CAR-1000', 4);
    assert.equal(map.get('BV-RIS-CAR-500'), 3);
    assert.equal(map.get('BV-RIS-CAR-1000'), 4);
    assert.equal(map.get('BV-RIS-CAR-5000'), undefined);
    assert.equal(map.has('BV-RIS-CAR-500'), true);
    assert.equal(map.has('BV-RIS-CAR-50'), false, 'a prefix of a key is another key');
    assert.equal(map.has(''), false);
    assert.equal(map.size, 2);
  });

  it('renumbers a key it holds, keeping one entry', () => {
    const map = new CompactStringMap().set('a', 1).set('a', 2);
    assert.equal(map.get('a'), 2);
    assert.equal(map.size, 1);
    assert.deepEqual([...map.keys()], ['a']);
  });

  it('tells apart keys of other lengths and characters beyond ASCII, the empty key included', () => {
    const keys = ['', 'a', 'ab', 'abc', 'ragù', 'ragu', 'ragú', '東京', '🍝', 'a\u0000b', 'a\u0000'];
    const map = new CompactStringMap();
    keys.forEach((key, index) => map.set(key, index));
    keys.forEach((key, index) => assert.equal(map.get(key), index, JSON.stringify(key)));
    assert.deepEqual([...map], keys, 'keys come back as they were set, in order');
    assert.equal(map.has('東'), false);
  });

  it('holds 200,000 keys made in sequence, each found with its number, as they grow the table and the buffer many times', () => {
    const map = new CompactStringMap();
    const key = (n: number) => `SKU-${String(n).padStart(8, '0')}`;
    for (let n = 0; n < 200_000; n++) map.set(key(n), n * 128 + (n % 100));
    assert.equal(map.size, 200_000);
    for (let n = 0; n < 200_000; n += 7) assert.equal(map.get(key(n)), n * 128 + (n % 100));
    for (let n = 200_000; n < 200_100; n++) assert.equal(map.has(key(n)), false);
    let count = 0;
    for (const found of map.keys()) assert.equal(found, key(count++));
    assert.equal(count, 200_000);
  });

  it('keeps numbers past 32 bits exactly (a SKU first used deep in a large file)', () => {
    const map = new CompactStringMap().set('x', 2 ** 40 + 1);
    assert.equal(map.get('x'), 2 ** 40 + 1);
  });

  it('costs the keys\' bytes and under 45 bytes more an entry, slack included, where a Map costs about 100', () => {
    const map = new CompactStringMap();
    const entries = 300_000;
    // 12-byte keys, as the generated catalogs' SKUs.
    for (let n = 0; n < entries; n++) map.set(`BV-${String(n).padStart(9, '0')}`, n);
    const perEntry = map.byteLength / entries;
    assert.ok(perEntry < 12 + 45, `${perEntry.toFixed(1)} bytes an entry`);
  });
});
