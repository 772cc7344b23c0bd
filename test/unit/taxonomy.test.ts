import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Taxonomy, type Category } from '../../src/catalog/model/taxonomy.js';

/** `count` categories, each the parent of the next. */
const chain = (count: number): Category[] =>
  Array.from({ length: count }, (_, level) => ({ handle: `level-${level}`, parent: level === 0 ? null : `level-${level - 1}`, titles: { en: `Level ${level}` } }));

describe('Taxonomy', () => {
  it('builds a stored tree 10,000 levels deep (deeper than writers allow), without recursion', () => {
    const taxonomy = new Taxonomy(chain(10_000).reverse(), []);
    assert.equal(taxonomy.categories.length, 10_000);
    assert.deepEqual(taxonomy.categories.slice(0, 2).map((category) => category.handle), ['level-0', 'level-1']);
    assert.equal(taxonomy.depthOf('level-9999'), 9999);
    assert.equal(taxonomy.subtree('level-0').size, 10_000);
    assert.deepEqual([...taxonomy.subtree('level-9997')], ['level-9997', 'level-9998', 'level-9999']);
  });

  it('orders each parent before its children, siblings as listed; a subtree is the category and all below it; a cycle is not served', () => {
    const category = (handle: string, parent: string | null): Category => ({ handle, parent, titles: { en: handle } });
    const taxonomy = new Taxonomy(
      [category('pasta', 'pantry'), category('gifts', null), category('pantry', null), category('eggs', 'hens'), category('hens', 'eggs'), category('oil', 'pantry'), category('penne', 'pasta'), category('lost', 'nowhere')],
      [],
    );
    assert.deepEqual(taxonomy.categories.map((c) => [c.handle, taxonomy.depthOf(c.handle)]), [['gifts', 0], ['pantry', 0], ['pasta', 1], ['penne', 2], ['oil', 1], ['lost', 0]]);
    assert.deepEqual([...taxonomy.subtree('pantry')], ['pantry', 'pasta', 'penne', 'oil']);
    assert.deepEqual([...taxonomy.subtree('penne')], ['penne']);
    assert.deepEqual([...taxonomy.subtree('eggs')], []);
    assert.equal(taxonomy.category('lost')?.parent, null);
  });
});
