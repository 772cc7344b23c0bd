import type { Locale } from '../catalog/model/locales.js';
import type { Db } from '../store/database.js';
import { findOwnedRow } from './owned-rows.js';
import type { SandboxAddressInput } from './schemas.js';

export interface CartLine {
  variant_id: string;
  quantity: number;
}

/** Lines naming the same variant added up into one, in the order the variants first appear. */
export function mergeLines(lines: readonly CartLine[]): CartLine[] {
  const merged = new Map<string, number>();
  for (const { variant_id, quantity } of lines) merged.set(variant_id, (merged.get(variant_id) ?? 0) + quantity);
  return [...merged].map(([variant_id, quantity]) => ({ variant_id, quantity }));
}

/**
 * The market a cart was opened for (`country`, `locale` or both on creation); a cart opened
 * with a currency alone has none and answers as the contract's SandboxCart.
 */
export interface OpenedFor {
  country?: string;
  locale?: Locale;
}

/** What a cart stores: its choices, never prices (those come from the catalog on each read). */
export interface CartContents {
  opened_for?: OpenedFor;
  items: CartLine[];
  shipping_address?: SandboxAddressInput;
  shipping_option_id?: string;
  /** The price_changed scenario was rehearsed on this cart: its unit prices are raised (scenarios.ts, changedUnitPrice). */
  price_changed?: true;
}

export interface StoredCart {
  id: string;
  keyId: string;
  currency: string;
  contents: CartContents;
  revision: number;
}

export async function insertCart(db: Db, cart: Omit<StoredCart, 'revision'>, now: Date, expiresAt: Date): Promise<StoredCart> {
  await db
    .insertInto('sandbox_carts')
    .values({
      id: cart.id,
      key_id: cart.keyId,
      currency: cart.currency,
      state: JSON.stringify(cart.contents),
      revision: 1,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
      expires_at: expiresAt.toISOString(),
    })
    .execute();
  return { ...cart, revision: 1 };
}

/** The cart if it exists, belongs to the key and has not expired; another key's cart is not found. */
export function findOwnedCart(db: Db, cartId: string, keyId: string, now: Date): Promise<StoredCart | undefined> {
  return findOwnedRow(db, { table: 'sandbox_carts', column: 'id', value: cartId }, { keyId, now }, (row) => ({
    id: row.id,
    keyId: row.key_id,
    currency: row.currency,
    contents: JSON.parse(row.state) as CartContents,
    revision: Number(row.revision),
  }));
}

/**
 * Writes new contents only if nobody changed the cart since it was read; undefined means
 * it was, and the caller re-reads and re-applies its change.
 */
export async function updateCart(db: Db, cart: StoredCart, contents: CartContents, now: Date): Promise<StoredCart | undefined> {
  const result = await db
    .updateTable('sandbox_carts')
    .set({ state: JSON.stringify(contents), revision: cart.revision + 1, updated_at: now.toISOString() })
    .where('id', '=', cart.id)
    .where('revision', '=', cart.revision)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1 ? { ...cart, contents, revision: cart.revision + 1 } : undefined;
}

/** Deletes the cart only if nobody changed it since it was read; false means it was (or it is gone), and the caller re-reads. */
export async function deleteCart(db: Db, cart: StoredCart): Promise<boolean> {
  const result = await db.deleteFrom('sandbox_carts').where('id', '=', cart.id).where('revision', '=', cart.revision).executeTakeFirst();
  return Number(result.numDeletedRows) === 1;
}
