import type { LockedCatalog } from '../locked-catalog.js';
import {
  applyPrices,
  applyStock,
  bumpVariantVersions,
  variantsBySku,
  priceRegionProblems,
  priceTarget,
  STOCK_FIELDS,
  type StoredVariantRow,
  type PriceSetting,
  type StockFields,
} from './variants.js';
import { CatalogWriteError, type RowProblem } from './write-errors.js';

type Trx = LockedCatalog;

interface BulkRow {
  sku: string;
  /** Refuse the row unless the variant is at this version (optimistic concurrency per row). */
  if_version?: number;
}

export type InventoryRow = BulkRow & StockFields;
export type PriceRow = BulkRow & PriceSetting;

/** One written row of a bulk request. */
export interface RowResult {
  index: number;
  sku: string;
  variantId: string;
  productId: string;
  versionBefore: number;
  versionAfter: number;
}

export const BULK_MAX_ROWS = 1000;

/** Sets stock fields by SKU: every row is written, or (when any row is refused) none. */
export function setInventory(trx: Trx, rows: readonly InventoryRow[]): Promise<RowResult[]> {
  return bulkWrite(trx, rows, {
    target: (row) => row.sku,
    rowProblems: async () =>
      new Map(
        rows.flatMap((row, index) =>
          STOCK_FIELDS.some((field) => row[field] !== undefined)
            ? []
            : [[index, { code: 'EMPTY_ROW' as const, message: `the row sets none of ${STOCK_FIELDS.join(', ')}` }]],
        ),
      ),
    apply: (located) => applyStock(trx, located.map(({ row, variant }) => ({ ...row, variantId: variant.id }))),
  });
}

/** Sets or removes prices by SKU, currency and region: every row is written, or (when any row is refused) none. */
export function setPrices(trx: Trx, rows: readonly PriceRow[]): Promise<RowResult[]> {
  return bulkWrite(trx, rows, {
    target: (row) => `${row.sku}/${priceTarget(row)}`,
    rowProblems: () => priceRegionProblems(trx, rows),
    apply: (located) => applyPrices(trx, located.map(({ row, variant }) => ({ ...row, variantId: variant.id }))),
  });
}

interface BulkSteps<R extends BulkRow> {
  /** What a row writes; two rows with one target are refused, since their order would decide. */
  target(row: R): string;
  /** The refusals of the operation's own rules, by row index. */
  rowProblems(): Promise<Map<number, Pick<RowProblem, 'code' | 'message'>>>;
  apply(located: { row: R; variant: StoredVariantRow }[]): Promise<void>;
}

/**
 * Reads the variants of every row, checks every row and reports all the
 * refused ones at once; only when none is refused does it write, in chunked statements.
 */
async function bulkWrite<R extends BulkRow>(trx: Trx, rows: readonly R[], steps: BulkSteps<R>): Promise<RowResult[]> {
  const variants = await variantsBySku(trx, rows.map((row) => row.sku));
  const own = await steps.rowProblems();
  const firstRowOf = new Map<string, number>();
  const problems: RowProblem[] = [];
  rows.forEach((row, index) => {
    const refuse = (code: RowProblem['code'], message: string) => problems.push({ index, sku: row.sku, code, message });
    const first = firstRowOf.get(steps.target(row));
    if (first === undefined) firstRowOf.set(steps.target(row), index);
    const variant = variants.get(row.sku);
    if (first !== undefined) refuse('DUPLICATE_ROW', `row ${first} already writes the same target`);
    else if (!variant) refuse('UNKNOWN_SKU', `no variant has the SKU ${row.sku}`);
    else if (own.has(index)) refuse(own.get(index)!.code, own.get(index)!.message);
    else if (row.if_version !== undefined && row.if_version !== variant.version) {
      refuse('VERSION_MISMATCH', `the variant is at version ${variant.version}, not ${row.if_version}`);
    }
  });
  if (problems.length > 0) {
    throw new CatalogWriteError(`${problems.length} of ${rows.length} rows were refused; nothing was written.`, { kind: 'invalid_rows', rows: problems });
  }

  const located = rows.map((row) => ({ row, variant: variants.get(row.sku)! }));
  await steps.apply(located);
  await bumpVariantVersions(trx, located.map(({ variant }) => variant.id));
  return located.map(({ row, variant }, index) => ({
    index,
    sku: row.sku,
    variantId: variant.id,
    productId: variant.product_id,
    versionBefore: variant.version,
    versionAfter: variant.version + 1,
  }));
}
