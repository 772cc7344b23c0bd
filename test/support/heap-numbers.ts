import type { FastifyInstance } from 'fastify';
import { HeapBudget } from '../../src/catalog/read-model/heap-budget.js';

export const MiB = 2 ** 20;

/**
 * Heap budgets for a test app's read model, fed numbers instead of the process's heap:
 * `base` bytes of service and `perProduct` bytes for each product the app's read model
 * serves, against a heap limit of `limit`. The numbers have no garbage in them, so a
 * catalog of any size is a sample to project from.
 */
export function heapOfServedProducts(base: number, perProduct: number, limit: number) {
  let app: FastifyInstance | undefined;
  const served = () => (app?.catalogReadModel.loaded ? app.catalogReadModel.catalog.products.length : 0);
  return {
    heapBudget: () => new HeapBudget(() => ({ used: base + perProduct * served(), limit }), 1),
    /** The test app's `beforeReady`: the products its read model serves count from then on (none while it builds). */
    watch: (built: FastifyInstance) => {
      app = built;
    },
  };
}
