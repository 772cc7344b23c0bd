import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StringPool } from '../../src/catalog/read-model/string-pool.js';

/** A string equal to `text` but not the same object, as each row of a query answers it. */
const copy = (text: string) => JSON.parse(JSON.stringify(text)) as string;

describe('StringPool', () => {
  it('answers the first of equal strings', () => {
    const pool = new StringPool(10);
    const first = pool.intern(copy('500 g'));
    assert.equal(pool.intern(copy('500 g')), first);
    assert.equal(pool.intern('250 g'), '250 g');
  });

  it('shares one frozen list among equal lists, keeps lists that differ in order or content apart', () => {
    const pool = new StringPool(10);
    const list = pool.internList([copy('500 g'), copy('Whole bean')]);
    assert.equal(pool.internList(['500 g', 'Whole bean']), list);
    assert.ok(Object.isFrozen(list));
    assert.deepEqual(list, ['500 g', 'Whole bean']);
    assert.notEqual(pool.internList(['Whole bean', '500 g']), list);
    assert.deepEqual(pool.internList(['500 g']), ['500 g']);
    // Strings that would join alike are different lists.
    assert.deepEqual(pool.internList(['a,b']), ['a,b']);
    assert.deepEqual(pool.internList(['a', 'b']), ['a', 'b']);
    assert.deepEqual(pool.internList(['a\u001fb']), ['a\u001fb']);
  });

  it('interns the strings of a list, and answers one empty list for every empty one', () => {
    const pool = new StringPool(10);
    const bean = pool.intern(copy('Whole bean'));
    assert.equal(pool.internList([copy('Whole bean')])[0], bean);
    assert.equal(pool.internList([]), pool.internList([]));
  });

  it('starts over when full, so ever-new values cannot grow it without end', () => {
    const pool = new StringPool(2);
    const first = pool.internList(['a']);
    pool.internList(['b']);
    assert.equal(pool.internList(['a']), first, 'still shared while the pool has room');
    pool.internList(['c']);
    const again = pool.internList(['a']);
    assert.deepEqual(again, ['a']);
    assert.notEqual(again, first, 'forgotten once the pool started over');
  });
});
