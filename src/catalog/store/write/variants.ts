import type { LockedCatalog } from '../locked-catalog.js';
import { sql } from 'kysely';
import { chunks } from '../../../store/chunks.js';
import { CatalogWriteError, checkVersion, type VersionCondition } from './write-errors.js';

type Trx = LockedCatalog;

export interface StockFields {
  manage_inventory?: boolean;
  inventory_quantity?: number;
  allow_backorder?: boolean;
}

export const STOCK_FIELDS = ['manage_inventory', 'inventory_quantity', 'allow_backorder'] as const;

/** A price to set (`amount`, minor units) or remove (`null`) for one currency, region-specific when `region_id` is given. */
export interface PriceSetting {
  currency: string;
  region_id?: string;
  amount: number | null;
}

/** What a variant write changed. */
export interface VariantChange {
  variantId: string;
  productId: string;
  versionBefore: number;
  versionAfter: number;
}

export interface StoredVariantRow {
  id: string;
  sku: string;
  product_id: string;
  version: number;
}

/** The variants with these SKUs (unknown ones are missing from the map). */
export async function variantsBySku(trx: Trx, skus: string[]): Promise<Map<string, StoredVariantRow>> {
  const found = new Map<string, StoredVariantRow>();
  for (const batch of chunks([...new Set(skus)].sort())) {
    const rows = await trx.selectFrom('variants').select(['id', 'sku', 'product_id', 'version']).where('sku', 'in', batch).orderBy('sku').execute();
    for (const row of rows) found.set(row.sku, { ...row, version: Number(row.version) });
  }
  return found;
}

/**
 * Why each price setting cannot be written, by its index: a region that does not exist,
 * or whose currency is another; or a currency no region sells in (no market would show the
 * price; removing one is allowed). The regions stay as read until the write commits.
 */
export async function priceRegionProblems(trx: Trx, prices: readonly PriceSetting[]): Promise<Map<number, { code: PriceProblemCode; message: string }>> {
  const problems = new Map<number, { code: PriceProblemCode; message: string }>();
  if (prices.length === 0) return problems;
  // Every region: they are the deployment's markets, a handful.
  const regions = await trx.selectFrom('regions').select(['id', 'currency']).orderBy('id').execute();
  const currencyOf = new Map(regions.map((region) => [region.id, region.currency]));
  const sold = new Set(regions.map((region) => region.currency));
  prices.forEach((price, index) => {
    if (price.region_id === undefined) {
      if (price.amount !== null && !sold.has(price.currency)) {
        problems.set(index, { code: 'UNKNOWN_CURRENCY', message: `no region sells in ${price.currency} (they sell in ${[...sold].sort().join(', ')})` });
      }
      return;
    }
    const currency = currencyOf.get(price.region_id);
    if (currency === undefined) problems.set(index, { code: 'UNKNOWN_REGION', message: `no region has the id ${price.region_id}` });
    else if (currency !== price.currency) {
      problems.set(index, { code: 'CURRENCY_MISMATCH', message: `region ${price.region_id} sells in ${currency}, not ${price.currency}` });
    }
  });
  return problems;
}

type PriceProblemCode = 'UNKNOWN_REGION' | 'CURRENCY_MISMATCH' | 'UNKNOWN_CURRENCY';

/** Which price a setting targets: two settings for one target in one request are ambiguous. */
export const priceTarget = (price: PriceSetting) => `${price.currency}/${price.region_id ?? ''}`;

/** Writes stock fields (and, for a product's variants, their position), each variant its own values, in one statement per chunk (a CASE per column). */
export async function applyStock(trx: Trx, changes: readonly ({ variantId: string; position?: number } & StockFields)[]): Promise<void> {
  for (const batch of chunks(changes)) {
    const set: Record<string, unknown> = {};
    for (const field of [...STOCK_FIELDS, 'position'] as const) {
      const values = batch.flatMap((change) => (change[field] === undefined ? [] : [[change.variantId, Number(change[field])] as const]));
      if (values.length === 0) continue;
      const branches = sql.join(values.map(([id, value]) => sql`when ${id} then ${value}`), sql` `);
      set[field] = sql`case ${sql.ref('id')} ${branches} else ${sql.ref(field)} end`;
    }
    if (Object.keys(set).length === 0) continue;
    await trx.updateTable('variants').set(set).where('id', 'in', batch.map((change) => change.variantId)).execute();
  }
}

/** Replaces (or, for a null amount, removes) the price of each variant for each setting's currency and region. */
export async function applyPrices(trx: Trx, changes: readonly ({ variantId: string } & PriceSetting)[]): Promise<void> {
  for (const batch of chunks(changes)) {
    await trx
      .deleteFrom('prices')
      .where((eb) =>
        eb.or(
          batch.map((change) =>
            eb.and([
              eb('variant_id', '=', change.variantId),
              eb('currency', '=', change.currency),
              change.region_id === undefined ? eb('region_id', 'is', null) : eb('region_id', '=', change.region_id),
            ]),
          ),
        ),
      )
      .execute();
    const rows = batch.flatMap((change) =>
      change.amount === null ? [] : [{ variant_id: change.variantId, currency: change.currency, region_id: change.region_id ?? null, amount: change.amount }],
    );
    if (rows.length > 0) await trx.insertInto('prices').values(rows).execute();
  }
}

/** One version step per variant, however many of its fields or prices a request changed. */
export async function bumpVariantVersions(trx: Trx, variantIds: readonly string[]): Promise<void> {
  for (const batch of chunks([...new Set(variantIds)])) {
    await trx.updateTable('variants').set((eb) => ({ version: eb('version', '+', 1) })).where('id', 'in', batch).execute();
  }
}

export interface VariantPatch extends StockFields {
  prices?: PriceSetting[];
}

/** Changes one variant's stock settings and prices. */
export async function patchVariant(trx: Trx, id: string, patch: VariantPatch, condition: VersionCondition | undefined): Promise<VariantChange> {
  const row = await trx.selectFrom('variants').select(['id', 'product_id', 'version']).where('id', '=', id).executeTakeFirst();
  if (!row) throw new CatalogWriteError(`No variant has the id ${id}.`, { kind: 'not_found' });
  const version = Number(row.version);
  checkVersion(`Variant ${id}`, version, condition);

  const prices = patch.prices ?? [];
  const problems = [...(await priceRegionProblems(trx, prices))].map(([index, problem]) => ({
    path: `$.prices[${index}].${problem.code === 'UNKNOWN_CURRENCY' ? 'currency' : 'region_id'}`,
    message: problem.message,
  }));
  const seen = new Set<string>();
  prices.forEach((price, index) => {
    if (seen.has(priceTarget(price))) problems.push({ path: `$.prices[${index}]`, message: `another entry already sets the ${price.currency} price${price.region_id ? ` of region ${price.region_id}` : ''}` });
    seen.add(priceTarget(price));
  });
  if (problems.length > 0) {
    throw new CatalogWriteError(`The prices are invalid: ${problems.map((problem) => `${problem.path} ${problem.message}`).join('; ')}.`, { kind: 'invalid', problems });
  }

  await applyStock(trx, [{ variantId: id, ...patch }]);
  await applyPrices(trx, prices.map((price) => ({ variantId: id, ...price })));
  await bumpVariantVersions(trx, [id]);
  return { variantId: id, productId: row.product_id, versionBefore: version, versionAfter: version + 1 };
}
