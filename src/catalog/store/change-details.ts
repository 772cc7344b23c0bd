import { isDeepStrictEqual } from 'node:util';
import { chunks } from '../../store/chunks.js';
import { availabilityOf } from '../model/availability.js';
import type { ProductChangeDetail, ProductChangeKind, VariantAvailability } from './change-log.js';
import type { LockedCatalog } from './locked-catalog.js';
import type { ServedDocument, ServedVariant } from './served-document.js';

/** Products read per statement: one parameter each, well under every bound-parameter limit. */
const PRODUCTS_PER_READ = 500;

/**
 * Documents of products removed in a transaction, read by the writer just before it
 * removed their rows (`rememberBeforeRemoval`): by the time the change is recorded their
 * rows, served document included, are gone. Keyed by the transaction, so nothing
 * outlives it.
 */
const removedInTransaction = new WeakMap<LockedCatalog, Map<string, ServedDocument>>();

/** Call before deleting products' rows, so the change's details can say what was withdrawn. */
export async function rememberBeforeRemoval(trx: LockedCatalog, productIds: readonly string[]): Promise<void> {
  const removed = removedInTransaction.get(trx) ?? new Map<string, ServedDocument>();
  removedInTransaction.set(trx, removed);
  for (const [id, document] of await readStoredDocuments(trx, productIds)) removed.set(id, document);
}

/**
 * The served documents of these products as stored now. Called by the write protocol
 * before it rewrites them, they are the products as the previous change left them.
 */
export async function documentsBefore(trx: LockedCatalog, productIds: readonly string[]): Promise<Map<string, ServedDocument>> {
  const documents = await readStoredDocuments(trx, productIds);
  for (const [id, document] of removedInTransaction.get(trx) ?? []) if (!documents.has(id)) documents.set(id, document);
  return documents;
}

async function readStoredDocuments(trx: LockedCatalog, productIds: readonly string[]): Promise<Map<string, ServedDocument>> {
  const documents = new Map<string, ServedDocument>();
  for (const ids of chunks(productIds, PRODUCTS_PER_READ)) {
    const rows = await trx.selectFrom('products').select(['id', 'served']).where('id', 'in', ids).execute();
    for (const row of rows) if (row.served !== null) documents.set(row.id, JSON.parse(row.served) as ServedDocument);
  }
  return documents;
}

/**
 * What the change did to each product, in the order of `productIds`: the products whose
 * served documents differ before and after (`after` lacks removed products).
 */
export function changeDetails(
  productIds: readonly string[],
  before: ReadonlyMap<string, ServedDocument>,
  after: ReadonlyMap<string, ServedDocument>,
): ProductChangeDetail[] {
  const details: ProductChangeDetail[] = [];
  for (const id of productIds) {
    const detail = productDetail(id, before.get(id), after.get(id));
    if (detail) details.push(detail);
  }
  return details;
}

function productDetail(id: string, old: ServedDocument | undefined, now: ServedDocument | undefined): ProductChangeDetail | undefined {
  if (!old && !now) return undefined;
  const handle = now?.handle ?? old?.handle;
  // A product whose documents carry no handle was written before the change feed existed and not changed since.
  if (handle === undefined) return undefined;
  // A product created or deleted lists no prices or availability: it is new or gone as a whole.
  const prices = old && now ? priceChanges(old.variants, now.variants) : [];
  const availability = old && now ? availabilityChanges(old.variants, now.variants) : [];
  // A document written before documents said whether the product is served: its servedness is taken as unchanged.
  const wasLive = old ? (old.live ?? now?.live ?? 1) === 1 : false;
  const isLive = now?.live === 1;
  const kinds: ProductChangeKind[] = [];
  if (!old) kinds.push('created');
  if (old && now && contentChanged(old, now)) kinds.push('content');
  if (prices.length > 0) kinds.push('price');
  if (availability.length > 0) kinds.push('availability');
  if (!wasLive && isLive) kinds.push('published');
  if (wasLive && !isLive) kinds.push('withdrawn');
  if (!now) kinds.push('deleted');
  if (kinds.length === 0) return undefined;
  return { product_id: id, handle, kinds, served: isLive, prices, availability };
}

/** Everything served but prices, stock and servedness: texts, options, variants and their options, taxonomy, images. */
function contentChanged(old: ServedDocument, now: ServedDocument): boolean {
  // A document written before documents carried the thumbnail is compared without it.
  const legacy = old.live === undefined;
  const content = (document: ServedDocument) => ({
    ...document,
    live: undefined,
    handle: undefined,
    thumbnail: legacy ? undefined : document.thumbnail,
    variants: document.variants.map(([id, sku, optionValues]) => [id, sku, optionValues]),
  });
  return !isDeepStrictEqual(content(old), content(now));
}

/** Minor-unit prices keyed by region id or currency code, as a served variant holds them. */
function pricesOf(variant: ServedVariant | undefined): Map<string, number> {
  const prices = new Map<string, number>();
  const pairs = variant?.[6] ?? [];
  for (let i = 0; i < pairs.length; i += 2) prices.set(pairs[i] as string, pairs[i + 1] as number);
  return prices;
}

/** The variants of either document by id: those of the new one in its order, then those removed. */
function pairVariants(old: readonly ServedVariant[], now: readonly ServedVariant[]): [ServedVariant | undefined, ServedVariant | undefined][] {
  const oldById = new Map(old.map((variant) => [variant[0], variant]));
  const nowIds = new Set(now.map((variant) => variant[0]));
  return [
    ...now.map((variant): [ServedVariant | undefined, ServedVariant] => [oldById.get(variant[0]), variant]),
    ...old.filter((variant) => !nowIds.has(variant[0])).map((variant): [ServedVariant, undefined] => [variant, undefined]),
  ];
}

function priceChanges(old: readonly ServedVariant[], now: readonly ServedVariant[]): ProductChangeDetail['prices'] {
  return pairVariants(old, now).flatMap(([before, after]) => {
    const [id, sku] = (after ?? before)!;
    const oldPrices = pricesOf(before);
    const newPrices = pricesOf(after);
    const keys = [...new Set([...newPrices.keys(), ...oldPrices.keys()])];
    return keys.flatMap((key) => {
      const from = oldPrices.get(key) ?? null;
      const to = newPrices.get(key) ?? null;
      return from === to ? [] : [{ variant_id: id, sku, key, old: from, new: to }];
    });
  });
}

function availabilityChanges(old: readonly ServedVariant[], now: readonly ServedVariant[]): ProductChangeDetail['availability'] {
  return pairVariants(old, now).flatMap(([before, after]) => {
    const [id, sku] = (after ?? before)!;
    const from = availabilityIn(before);
    const to = availabilityIn(after);
    return from?.status === to?.status ? [] : [{ variant_id: id, sku, old: from, new: to }];
  });
}

function availabilityIn(variant: ServedVariant | undefined): VariantAvailability | null {
  if (!variant) return null;
  const [, , , manageInventory, inventoryQuantity, allowBackorder] = variant;
  const { purchasable, status } = availabilityOf({ manageInventory: manageInventory === 1, inventoryQuantity, allowBackorder: allowBackorder === 1 });
  return { purchasable, status };
}
