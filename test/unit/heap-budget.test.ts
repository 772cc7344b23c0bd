import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { advisedHeapMiB, CatalogTooLargeError, HeapBudget, type HeapReading } from '../../src/catalog/read-model/heap-budget.js';

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
    const budget = new HeapBudget(heap.read);
    budget.check(heap.load(50_000), 1_000_000);
    assert.throws(() => budget.check(heap.load(100_000), 1_000_000), (error: unknown) => {
      assert.ok(error instanceof CatalogTooLargeError);
      assert.match(error.message, /With the catalog's 1,000,000 served products and their search index, this process would use about 4,983 MiB of heap, more than 80% of its heap limit of 4,096 MiB/);
      // 4,983 / 0.8 = 6,229 MiB, rounded up to 6,656 (13 × 512).
      assert.match(error.message, /NODE_OPTIONS=--max-old-space-size=6656\b/);
      return true;
    });
  });

  it('lets a catalog that fits load', () => {
    const heap = heapOf(100 * MiB, 2048, 4096 * MiB);
    const budget = new HeapBudget(heap.read);
    for (let loaded = 1000; loaded <= 1_000_000; loaded += 1000) budget.check(heap.load(loaded), 1_000_000);
  });

  it('judges a loading catalog once twice its sample (5%, at least 20,000 products) is loaded, or the whole of a smaller catalog', () => {
    // Each catalog projects at about 4,983 MiB, over 80% of 4 GiB but not twice that (refused at once).
    const overBudget = heapOf(100 * MiB, 4096, 4096 * MiB);
    const large = new HeapBudget(overBudget.read);
    assert.doesNotThrow(() => large.check(overBudget.load(99_999), 1_000_000));
    assert.throws(() => large.check(overBudget.load(100_000), 1_000_000), CatalogTooLargeError);

    const small = heapOf(100 * MiB, 40_960, 4096 * MiB);
    const hundredThousand = new HeapBudget(small.read);
    assert.doesNotThrow(() => hundredThousand.check(small.load(39_999), 100_000));
    assert.throws(() => hundredThousand.check(small.load(40_000), 100_000), CatalogTooLargeError);

    const tiny = heapOf(100 * MiB, 4 * MiB, 4096 * MiB);
    const thousand = new HeapBudget(tiny.read);
    assert.doesNotThrow(() => thousand.check(tiny.load(999), 1000));
    assert.throws(() => thousand.check(tiny.load(1000), 1000), CatalogTooLargeError);
  });
});

describe('HeapBudget, garbage in the readings', () => {
  /** 100 MiB of service and `perProduct` bytes a product, plus `garbage` bytes at every reading but every fifth, as if right after a collection. */
  function collectedNowAndThen(perProduct: number, garbage: number, limit: number) {
    let loaded = 0;
    let reads = 0;
    return {
      read: (): HeapReading => ({ used: 100 * MiB + perProduct * loaded + (reads++ % 5 === 0 ? 0 : garbage), limit }),
      load(count: number) {
        loaded = count;
        return count;
      },
    };
  }

  it("projects from the leanest reading since the sample: a catalog that fits is loaded though most readings count its pages' garbage", () => {
    // 3 KiB a product: 1,000,000 project 100 + 2,930 * 1.25 = 3,762 MiB, under 80% of 5 GiB (4,096);
    // a reading with 100 MiB of garbage at 50,000 products would project 100 + 4,930 * 1.25 = 6,262 MiB.
    const heap = collectedNowAndThen(3072, 100 * MiB, 5120 * MiB);
    const budget = new HeapBudget(heap.read);
    for (let loaded = 1000; loaded <= 1_000_000; loaded += 1000) budget.check(heap.load(loaded), 1_000_000);
  });

  it('refuses at once, before twice the sample, a catalog whose reading of the moment is over twice the budget', () => {
    // 10 KiB a product and no garbage: 1,000,000 project 100 + 9,766 * 1.25 MiB, three times 80% of 5 GiB.
    const heap = heapOf(100 * MiB, 10_240, 5120 * MiB);
    const budget = new HeapBudget(heap.read);
    assert.throws(() => budget.check(heap.load(50_000), 1_000_000), CatalogTooLargeError);
  });

  it('judges a catalog at its last page when withdrawn products left it short of twice its sample', () => {
    // Counted at 40,000 (judged from 40,000 on), loaded 35,000 at 20 KiB a product: 954 MiB, over 80% of 1 GiB, not twice that.
    const heap = heapOf(100 * MiB, 20_480, 1024 * MiB);
    const budget = new HeapBudget(heap.read);
    assert.doesNotThrow(() => budget.check(heap.load(20_000), 40_000));
    assert.doesNotThrow(() => budget.check(heap.load(35_000), 40_000));
    assert.throws(() => budget.check(35_000, 35_000), CatalogTooLargeError);
  });

  it('refuses a catalog that does not fit even at its leanest reading', () => {
    const heap = collectedNowAndThen(4096, 50 * MiB, 4096 * MiB);
    const budget = new HeapBudget(heap.read);
    assert.throws(() => {
      for (let loaded = 1000; loaded <= 1_000_000; loaded += 1000) budget.check(heap.load(loaded), 1_000_000);
    }, (error: unknown) => error instanceof CatalogTooLargeError && /about 4,983 MiB/.test(error.message));
  });
});

describe('HeapBudget, serving', () => {
  it('projects the served catalog, index built, to a number of products, against 80% of the heap limit', () => {
    // 100 MiB of service, 4 KiB a served product: 80% of 1 GiB holds (819.2 - 100) MiB / 4 KiB = 184,115 products.
    const heap = heapOf(100 * MiB, 4096, 1024 * MiB);
    const budget = new HeapBudget(heap.read);
    const served = heap.load(100_000);
    assert.equal(budget.exceeded(served, 184_115), undefined);
    const projection = budget.exceeded(served, 184_116);
    assert.deepEqual(projection, { products: 184_116, projectedBytes: 100 * MiB + 4096 * 184_116, limitBytes: 1024 * MiB });
    // The heap the projection would take 80% of, rounded up to the next 512 MiB: just over 1,024 MiB is 1,536; 1,300 / 0.8 = 1,625 is 2,048.
    assert.equal(advisedHeapMiB(projection!), 1536);
    assert.equal(advisedHeapMiB({ ...projection!, projectedBytes: 1300 * MiB }), 2048);
  });

  it('tells nothing from a served catalog that is too small a sample of the one projected', () => {
    const heap = heapOf(100 * MiB, 1 * MiB, 1024 * MiB);
    const budget = new HeapBudget(heap.read);
    // 20,000 served: 5% of 400,000; a catalog of 400,001 is not projected from them.
    assert.ok(budget.exceeded(heap.load(20_000), 400_000));
    assert.equal(budget.exceeded(20_000, 400_001), undefined);
    // Under 20,000 served, no growth is projected; a catalog that does not grow is.
    assert.equal(budget.exceeded(heap.load(1000), 1001), undefined);
    assert.ok(budget.exceeded(1000, 1000));
    // A test's budget, fed numbers without garbage, may take a smaller sample.
    assert.ok(new HeapBudget(heap.read, 1).exceeded(1000, 1001));
  });

  it('names the numbers and the setting in its error and its details', () => {
    const error = new CatalogTooLargeError({ products: 110, projectedBytes: 210 * MiB, limitBytes: 250 * MiB }, 'the import, the catalog\'s', 'the import is refused');
    assert.match(error.message, /^With the import, the catalog's 110 served products and their search index, this process would use about 210 MiB of heap, more than 80% of its heap limit of 250 MiB; the import is refused\. Give Node\.js a larger heap, e\.g\. NODE_OPTIONS=--max-old-space-size=512,/);
    assert.deepEqual(error.details, {
      served_products: 110,
      projected_heap_mib: 210,
      heap_limit_mib: 250,
      catalog_heap_share: 0.8,
      setting: 'NODE_OPTIONS=--max-old-space-size=512',
    });
  });
});
