import type { MarketContext } from '../../catalog/queries/market.js';
import type { Db } from '../../store/database.js';
import type { PricedContents } from '../cart-pricing.js';
import type { CartLine, OpenedFor } from '../cart-store.js';
import type { FulfillmentOptionView, SoldLineView, TotalsView } from '../line-views.js';
import { findOwnedRow } from '../owned-rows.js';

/** A line of a session: a variant and its quantity, one line per variant. */
export interface CheckoutLine extends CartLine {
  /** The variant was in the published catalog when the line was set: gone later, it is `unpublished` rather than unknown. */
  offered?: true;
}

/** The buyer's consent to uses of their data, as a platform states it (UCP's buyer consent extension). */
export interface BuyerConsent {
  analytics?: boolean;
  preferences?: boolean;
  marketing?: boolean;
  sale_of_data?: boolean;
}

export interface CheckoutBuyer {
  first_name?: string;
  last_name?: string;
  email?: string;
  phone_number?: string;
  consent?: BuyerConsent;
}

/**
 * A simulated shipping address in the fields both protocols have: a name whole (ACP) or
 * in parts (UCP), two street lines, city, state or region, country, postal code, phone.
 * A shipment needs line_one, city and postal_code: without them the session is
 * incomplete (src/sandbox/checkout/problems.ts).
 */
export interface CheckoutAddress {
  name?: string;
  first_name?: string;
  last_name?: string;
  line_one?: string;
  line_two?: string;
  city?: string;
  state?: string;
  /** ISO 3166-1 alpha-2, stored upper-case: a served country selling the session's currency moves its market there. */
  country: string;
  postal_code?: string;
  phone_number?: string;
}

/** What a session stores: choices, never prices (those come from the live catalog until completion freezes them into the order). */
export interface CheckoutState extends PricedContents<CheckoutLine> {
  opened_for?: OpenedFor;
  items: CheckoutLine[];
  buyer?: CheckoutBuyer;
  shipping_address?: CheckoutAddress;
  shipping_option_id?: string;
  /** The cart the session was made from. */
  cart_id?: string;
  /** Carried over from a cart that rehearsed price_changed, so its prices stay what the client saw. */
  price_changed?: true;
}

export type StoredCheckoutStatus = 'open' | 'completed' | 'canceled';

export interface StoredCheckout {
  id: string;
  keyId: string;
  currency: string;
  state: CheckoutState;
  status: StoredCheckoutStatus;
  revision: number;
  activeCartId: string | null;
  createdAt: string;
  updatedAt: string;
  expiresAt: string;
}

/** What an order keeps: everything bought, at the prices of the moment of completion. */
export interface OrderSnapshot {
  market: MarketContext;
  lines: SoldLineView[];
  buyer?: CheckoutBuyer;
  shipping_address: CheckoutAddress;
  fulfillment_option: FulfillmentOptionView;
  totals: TotalsView;
  /** The sandbox token that paid `totals.total`; never anything a client sent beside it. */
  payment: { token: string };
}

export interface StoredOrder {
  id: string;
  keyId: string;
  checkoutId: string;
  currency: string;
  snapshot: OrderSnapshot;
  createdAt: string;
  expiresAt: string;
}

/**
 * Stores a new open session. False when it names a cart that already has an open
 * session (the unique active_cart_id): the caller answers that session instead.
 */
export async function insertCheckout(db: Db, checkout: Omit<StoredCheckout, 'revision'>): Promise<boolean> {
  const inserted = await db
    .insertInto('sandbox_checkouts')
    .values({
      id: checkout.id,
      key_id: checkout.keyId,
      currency: checkout.currency,
      state: JSON.stringify(checkout.state),
      status: checkout.status,
      revision: 1,
      active_cart_id: checkout.activeCartId,
      created_at: checkout.createdAt,
      updated_at: checkout.updatedAt,
      expires_at: checkout.expiresAt,
    })
    .onConflict((conflict) => conflict.column('active_cart_id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** The session if it exists, belongs to the key and has not expired; another key's session is not found. */
export function findOwnedCheckout(db: Db, checkoutId: string, keyId: string, now: Date): Promise<StoredCheckout | undefined> {
  return checkoutWhere(db, 'id', checkoutId, keyId, now);
}

/** The key's open session made from the cart, if any. */
export function findOpenCheckoutOfCart(db: Db, cartId: string, keyId: string, now: Date): Promise<StoredCheckout | undefined> {
  return checkoutWhere(db, 'active_cart_id', cartId, keyId, now);
}

function checkoutWhere(db: Db, column: 'id' | 'active_cart_id', value: string, keyId: string, now: Date): Promise<StoredCheckout | undefined> {
  return findOwnedRow(db, { table: 'sandbox_checkouts', column, value }, { keyId, now }, (row) => ({
    id: row.id,
    keyId: row.key_id,
    currency: row.currency,
    state: JSON.parse(row.state) as CheckoutState,
    status: row.status,
    revision: Number(row.revision),
    activeCartId: row.active_cart_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    expiresAt: row.expires_at,
  }));
}

/**
 * Writes the session's new state and status only if nobody changed it since it was
 * read; undefined means someone did, and the caller re-reads and decides again. A
 * session leaving `open` frees its cart for a new session.
 */
export async function updateCheckout(
  db: Db,
  checkout: StoredCheckout,
  change: { state?: CheckoutState; status?: StoredCheckoutStatus },
  now: Date,
): Promise<StoredCheckout | undefined> {
  const state = change.state ?? checkout.state;
  const status = change.status ?? checkout.status;
  const activeCartId = status === 'open' ? checkout.activeCartId : null;
  const updatedAt = now.toISOString();
  const result = await db
    .updateTable('sandbox_checkouts')
    .set({ state: JSON.stringify(state), status, active_cart_id: activeCartId, revision: checkout.revision + 1, updated_at: updatedAt })
    .where('id', '=', checkout.id)
    .where('revision', '=', checkout.revision)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) return undefined;
  return { ...checkout, state, status, activeCartId, revision: checkout.revision + 1, updatedAt };
}

export async function insertOrder(db: Db, order: StoredOrder): Promise<void> {
  await db
    .insertInto('sandbox_orders')
    .values({
      id: order.id,
      key_id: order.keyId,
      checkout_id: order.checkoutId,
      currency: order.currency,
      snapshot: JSON.stringify(order.snapshot),
      created_at: order.createdAt,
      expires_at: order.expiresAt,
    })
    .execute();
}

/** The order (by its id, or the session that created it) if it exists, belongs to the key and has not expired. */
export function findOwnedOrder(db: Db, column: 'id' | 'checkout_id', value: string, keyId: string, now: Date): Promise<StoredOrder | undefined> {
  return findOwnedRow(db, { table: 'sandbox_orders', column, value }, { keyId, now }, (row) => ({
    id: row.id,
    keyId: row.key_id,
    checkoutId: row.checkout_id,
    currency: row.currency,
    snapshot: JSON.parse(row.snapshot) as OrderSnapshot,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
  }));
}
