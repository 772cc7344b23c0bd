import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CatalogTooLargeError, HeapBudget, type HeapReading } from '../../src/catalog/read-model/heap-budget.js';

const MiB = 2 ** 20;

/** A heap that holds `base` bytes, then `perProduct` bytes for each product the test says is loaded. */
function heapOf(base: number, perProduct: number, limit: number) {
  let loaded = 0;
  return {
    read: (): HeapReading => ({ used: base + perProduct * loaded, limit }),
    load(count: number) {
      loaded = count;
      return count;
    },
  };
}

describe('HeapBudget', () => {
  it('projects a catalog from the products loaded so far and refuses one over 80% of the heap limit, index included', () => {
    // 100 MiB of service, 4 KiB a product: 1,000,000 products project 100 + 3,906 * 1.25 MiB, over 80% of 4 GiB.
    const heap = heapOf(100 * MiB, 4096, 4096 * MiB);
    const budget = new HeapBudget(1_000_000, heap.read);
    assert.throws(() => budget.check(heap.load(50_000)), (error: unknown) => {
      assert.ok(error instanceof CatalogTooLargeError);
      assert.match(error.message, /With the catalog's 1,000,000 served products and their search index, this process would use about 4,983 MiB of heap, more than 80% of its heap limit of 4,096 MiB/);
      // 4,983 / 0.8 = 6,229 MiB, rounded up to 6,656 (13 × 512).
      assert.match(error.message, /NODE_OPTIONS=--max-old-space-size=6656\b/);
      return true;
    });
  });

  it('lets a catalog that fits load', () => {
    const heap = heapOf(100 * MiB, 2048, 4096 * MiB);
    const budget = new HeapBudget(1_000_000, heap.read);
    for (let loaded = 1000; loaded <= 1_000_000; loaded += 1000) budget.check(heap.load(loaded));
  });

  it('waits for a sample of 5% and at least 20,000 products, or the whole of a smaller catalog, before projecting', () => {
    const overBudget = heapOf(100 * MiB, 1 * MiB, 1024 * MiB);
    const large = new HeapBudget(1_000_000, overBudget.read);
    assert.doesNotThrow(() => large.check(overBudget.load(49_999)));
    assert.throws(() => large.check(overBudget.load(50_000)), CatalogTooLargeError);

    const small = heapOf(100 * MiB, 1 * MiB, 1024 * MiB);
    const hundredThousand = new HeapBudget(100_000, small.read);
    assert.doesNotThrow(() => hundredThousand.check(small.load(19_999)));
    assert.throws(() => hundredThousand.check(small.load(20_000)), CatalogTooLargeError);

    const tiny = heapOf(100 * MiB, 1 * MiB, 1024 * MiB);
    const thousand = new HeapBudget(1000, tiny.read);
    assert.doesNotThrow(() => thousand.check(tiny.load(999)));
    assert.throws(() => thousand.check(tiny.load(1000)), CatalogTooLargeError);
  });
});
