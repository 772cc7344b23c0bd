import type { LiveCatalog } from '../../catalog/read-model/live-catalog.js';
import { newId } from '../../lib/new-id.js';
import type { Db } from '../../store/database.js';
import type { SandboxPrincipal } from '../auth.js';
import { findOwnedCart, mergeLines } from '../cart-store.js';
import type { Clock } from '../clock.js';
import { openMarket, type MarketRequest } from '../market-opening.js';
import type { DelegatedPaymentService } from '../payment/delegated-payments.js';
import { authorizePayment, SANDBOX_PAYMENT_TOKENS, type PaymentSubmission } from '../payment/simulated-payments.js';
import { refuseIfNothingSellable, requireScope, SandboxRefusalError, type SandboxRefusal } from '../refusals.js';
import { CART_ID_PATTERN, MAX_QUANTITY } from '../schemas.js';
import { CHECKOUT_SCOPE } from '../scopes.js';
import { shippingRatesFor, type ShippingRate } from '../shipping.js';
import {
  findOpenCheckoutOfCart,
  findOwnedCheckout,
  findOwnedOrder,
  insertCheckout,
  insertOrder,
  updateCheckout,
  type CheckoutAddress,
  type CheckoutBuyer,
  type CheckoutLine,
  type CheckoutState,
  type StoredCheckout,
  type StoredOrder,
} from './checkout-store.js';
import { assess, completedSessionView, orderSnapshot, orderView, sessionView, type CheckoutSessionView, type OrderView } from './checkout-views.js';

export const CHECKOUT_ID_PATTERN = '^sandbox_checkout_[0-9a-f]{24}$';
export const ORDER_ID_PATTERN = '^sandbox_order_[0-9a-f]{24}$';
/** Lines a session may be given at once, before lines of the same variant are added up. */
export const MAX_CHECKOUT_LINES = 100;

export interface CheckoutLineInput {
  variant_id: string;
  /** 1 to MAX_QUANTITY, once lines of the same variant are added up. */
  quantity: number;
}

/**
 * A new session: from a cart (`cart_id`: its lines, market, address and shipping option,
 * and only the buyer from here), or from lines in a market named as a cart's is.
 */
export interface CheckoutCreateInput extends MarketRequest {
  cart_id?: string;
  lines?: readonly CheckoutLineInput[];
  buyer?: CheckoutBuyer;
  shipping_address?: CheckoutAddress;
  fulfillment_option_id?: string;
  /**
   * Lines given, none of which can be bought now, make no session: refused with
   * `nothing_sellable` before anything is written (UCP's create, checkout.md Error
   * Handling). Not read with `cart_id`.
   */
  requireSellableLine?: boolean;
}

/** A change: an absent field stays as it is, null clears it; lines are replaced whole. */
export interface CheckoutUpdateInput {
  lines?: readonly CheckoutLineInput[];
  buyer?: CheckoutBuyer | null;
  shipping_address?: CheckoutAddress | null;
  fulfillment_option_id?: string | null;
}

export interface CompletionHooks {
  /**
   * Runs inside the transaction that completes the session and stores its order, so
   * what it writes (UCP's order event in the webhook outbox) commits with them or not at
   * all; throwing rolls everything back.
   */
  onOrder?(trx: Db, order: OrderView): Promise<void>;
  /** Runs once that transaction has committed (UCP starts sending the event it wrote at once). */
  onCommitted?(order: OrderView): void;
}

/** A completion's answer: the session, and its order; or, declined, the session as it was with the decline among its problems. */
export interface CheckoutCompletion {
  session: CheckoutSessionView;
  order: OrderView | null;
}

export interface CheckoutServiceDeps {
  db: Db;
  clock: Clock;
  /** The catalog as served now; each assessment reads it in one synchronous pass. */
  catalog: () => LiveCatalog;
  /** Minor units per currency (docs/decisions.md, Shipping). */
  shippingAmounts: Record<string, number>;
  /** Decides payments with delegated tokens, by their allowance. */
  delegatedPayments: DelegatedPaymentService;
}

const CART_ID = new RegExp(CART_ID_PATTERN);
const CHECKOUT_ID = new RegExp(CHECKOUT_ID_PATTERN);
const ORDER_ID = new RegExp(ORDER_ID_PATTERN);
/** Concurrent changes to one session retry; this many lost races in a row means something is wrong. */
const MAX_WRITE_ATTEMPTS = 50;
const TOKENS = SANDBOX_PAYMENT_TOKENS.map((entry) => entry.token);

/**
 * docs/decisions.md, Checkout sessions: the sandbox's protocol-neutral checkout
 * sessions and simulated orders, for the protocol adapters (UCP, ACP). Every call needs
 * the sandbox's checkout scope and sees only the calling key's sessions and orders.
 * Calls that cannot proceed throw a SandboxRefusalError; what a client can fix on the
 * session is answered as its problems.
 */
export class CheckoutSessionService {
  constructor(private readonly deps: CheckoutServiceDeps) {}

  async create(principal: SandboxPrincipal, input: CheckoutCreateInput): Promise<CheckoutSessionView> {
    requireCheckoutScope(principal);
    if (input.cart_id !== undefined) return this.createFromCart(principal, input.cart_id, input);
    const catalog = this.deps.catalog();
    const { currency, openedFor } = openMarket(catalog, input, this.deps.shippingAmounts);
    const contents = { ...(openedFor && { opened_for: openedFor }), items: sessionLines(catalog, input.lines ?? [], []) };
    const checkout = this.newCheckout(principal, currency, this.withChoices(contents, currency, input), null);
    const view = this.view({ ...checkout, revision: 1 }, catalog);
    if (input.requireSellableLine) refuseIfNothingSellable('checkout', view.lines);
    await insertCheckout(this.deps.db, checkout);
    return view;
  }

  async get(principal: SandboxPrincipal, checkoutId: string): Promise<CheckoutSessionView> {
    requireCheckoutScope(principal);
    const checkout = await this.ownedCheckout(principal, checkoutId);
    if (checkout.status === 'completed') return completedSessionView(checkout, await this.orderOf(checkout));
    return this.view(checkout, this.deps.catalog());
  }

  /** Sets what the input names on an open session (else `not_modifiable`). */
  async update(principal: SandboxPrincipal, checkoutId: string, input: CheckoutUpdateInput): Promise<CheckoutSessionView> {
    requireCheckoutScope(principal);
    return this.untilWritten(checkoutId, async () => {
      const checkout = openOrRefused(await this.ownedCheckout(principal, checkoutId));
      const catalog = this.deps.catalog();
      const { state } = checkout;
      const relined = input.lines ? { ...state, items: sessionLines(catalog, input.lines, state.items) } : state;
      const changed = this.withChoices(relined, checkout.currency, input);
      const saved = await updateCheckout(this.deps.db, checkout, { state: changed }, this.deps.clock());
      return saved && this.view(saved, catalog);
    });
  }

  /**
   * Pays with a simulated instrument and, approved, completes the session into an order
   * in one transaction with `hooks.onOrder` (then `hooks.onCommitted`). Refused before anything is read: a card
   * number anywhere in the payment (`real_card_refused`), a token the sandbox does not
   * know (`unknown_instrument`). Then: not the key's (`not_found`), completed or canceled
   * (`not_modifiable`), with problems (`not_ready`), a delegated token that is not the
   * key's (`unknown_instrument`). A declined payment (a delegated token's allowance
   * included) is an answer:
   * the session stays as it was, the decline among its problems, and no order.
   * Concurrent completions of one session make one order; the others are `not_modifiable`.
   */
  async complete(
    principal: SandboxPrincipal,
    checkoutId: string,
    payment: PaymentSubmission,
    hooks: CompletionHooks = {},
    /** Set on the session by the completion itself (ACP's complete request carries the buyer); kept only if the order is made. */
    changes: { buyer?: CheckoutBuyer } = {},
  ): Promise<CheckoutCompletion> {
    requireCheckoutScope(principal);
    const authorization = authorizePayment(payment);
    if ('refused' in authorization) {
      const message =
        authorization.refused === 'real_card_refused'
          ? 'The payment holds what looks like a real card number; the sandbox never takes one. Pay with a sandbox token instead.'
          : 'The payment names no sandbox token.';
      throw refused(`${message} Sandbox tokens: ${TOKENS.join(', ')}.`, { kind: authorization.refused, accepted: TOKENS });
    }
    return this.untilWritten(checkoutId, async () => {
      const open = openOrRefused(await this.ownedCheckout(principal, checkoutId));
      const checkout = changes.buyer ? { ...open, state: { ...open.state, buyer: buyerOf(changes.buyer) } } : open;
      const assessment = assess(checkout, this.deps.catalog(), this.ratesFor(checkout.currency));
      if (assessment.problems.length > 0) {
        throw refused(`Checkout ${checkoutId} is not ready to complete.`, { kind: 'not_ready', problems: assessment.problems });
      }
      const { itemTotal, shippingTotal } = assessment.priced;
      const outcome =
        'delegated' in authorization
          ? await this.deps.delegatedPayments.authorize(principal, authorization.delegated, { checkoutId, currency: checkout.currency, amount: itemTotal + shippingTotal })
          : authorization;
      if (outcome.outcome === 'declined') {
        return { session: { ...sessionView(checkout, assessment), problems: [{ kind: 'payment_declined', reason: outcome.reason }] }, order: null };
      }
      const completion = await this.deps.db.transaction().execute(async (trx) => {
        const now = this.deps.clock();
        const completed = await updateCheckout(trx, open, { status: 'completed', state: checkout.state }, now);
        if (!completed) return undefined;
        const order: StoredOrder = {
          id: newId('sandbox_order'),
          keyId: checkout.keyId,
          checkoutId: checkout.id,
          currency: checkout.currency,
          snapshot: orderSnapshot(checkout, assessment, payment.token),
          createdAt: now.toISOString(),
          expiresAt: checkout.expiresAt,
        };
        await insertOrder(trx, order);
        const answer = { session: completedSessionView(completed, order), order: orderView(order) };
        await hooks.onOrder?.(trx, answer.order);
        return answer;
      });
      if (completion) hooks.onCommitted?.(completion.order);
      return completion;
    });
  }

  /** Cancels an open session (else `not_modifiable`): it can no longer change or complete, and its cart may start a new one. */
  async cancel(principal: SandboxPrincipal, checkoutId: string): Promise<CheckoutSessionView> {
    requireCheckoutScope(principal);
    return this.untilWritten(checkoutId, async () => {
      const checkout = openOrRefused(await this.ownedCheckout(principal, checkoutId));
      const saved = await updateCheckout(this.deps.db, checkout, { status: 'canceled' }, this.deps.clock());
      return saved && this.view(saved, this.deps.catalog());
    });
  }

  async getOrder(principal: SandboxPrincipal, orderId: string): Promise<OrderView> {
    requireCheckoutScope(principal);
    const order = ORDER_ID.test(orderId) ? await findOwnedOrder(this.deps.db, 'id', orderId, principal.keyId, this.deps.clock()) : undefined;
    if (!order) throw notFound('order', orderId);
    return orderView(order);
  }

  /**
   * UCP's cart-to-checkout conversion: the key's open session of the cart if it has one
   * (concurrent conversions included), else a new one with the cart's lines and market;
   * the buyer, address and fulfillment option are the input's, else the cart's. The
   * cart stays as it is.
   */
  private async createFromCart(principal: SandboxPrincipal, cartId: string, input: CheckoutCreateInput): Promise<CheckoutSessionView> {
    const { db, clock } = this.deps;
    const cart = CART_ID.test(cartId) ? await findOwnedCart(db, cartId, principal.keyId, clock()) : undefined;
    if (!cart) throw notFound('cart', cartId);
    for (let attempts = 1; attempts <= MAX_WRITE_ATTEMPTS; attempts++) {
      const open = await findOpenCheckoutOfCart(db, cartId, principal.keyId, clock());
      if (open) return this.view(open, this.deps.catalog());
      const catalog = this.deps.catalog();
      const { opened_for, items, shipping_address, shipping_option_id, price_changed } = cart.contents;
      const fromCart: CheckoutState = {
        ...(opened_for && { opened_for }),
        items: items.map((line) => offeredIn(catalog, line)),
        ...(shipping_address && { shipping_address }),
        ...(shipping_option_id && { shipping_option_id }),
        cart_id: cartId,
        ...(price_changed && { price_changed }),
      };
      const checkout = this.newCheckout(principal, cart.currency, this.withChoices(fromCart, cart.currency, input), cartId);
      if (await insertCheckout(db, checkout)) return this.view({ ...checkout, revision: 1 }, catalog);
      // Another conversion of the cart won the race: answer its session.
    }
    throw new Error(`Cart ${cartId} kept changing sessions during ${MAX_WRITE_ATTEMPTS} attempts`);
  }

  /** `state` with the buyer, address and fulfillment option `choices` names set (null: removed); an option must be offered. */
  private withChoices(state: CheckoutState, currency: string, choices: Omit<CheckoutUpdateInput, 'lines'>): CheckoutState {
    const { buyer, shipping_address: address, fulfillment_option_id: optionId } = choices;
    return {
      ...state,
      ...(buyer !== undefined && { buyer: buyer === null ? undefined : buyerOf(buyer) }),
      ...(address !== undefined && { shipping_address: address === null ? undefined : addressOf(address) }),
      ...(optionId !== undefined && { shipping_option_id: optionId === null ? undefined : this.offeredOption(currency, optionId) }),
    };
  }

  private newCheckout(principal: SandboxPrincipal, currency: string, state: CheckoutState, cartId: string | null): Omit<StoredCheckout, 'revision'> {
    const now = this.deps.clock().toISOString();
    return {
      id: newId('sandbox_checkout'),
      keyId: principal.keyId,
      currency,
      state,
      status: 'open',
      activeCartId: cartId,
      createdAt: now,
      updatedAt: now,
      // Only stored keys hold the checkout scope, so there is an expiry, and the session shares it (docs/decisions.md, Keys).
      expiresAt: principal.expiresAt!.toISOString(),
    };
  }

  private async ownedCheckout(principal: SandboxPrincipal, checkoutId: string): Promise<StoredCheckout> {
    const checkout = CHECKOUT_ID.test(checkoutId) ? await findOwnedCheckout(this.deps.db, checkoutId, principal.keyId, this.deps.clock()) : undefined;
    if (!checkout) throw notFound('checkout', checkoutId);
    return checkout;
  }

  private async orderOf(checkout: StoredCheckout): Promise<StoredOrder> {
    // A session is completed in the transaction that stores its order, and both expire together.
    return (await findOwnedOrder(this.deps.db, 'checkout_id', checkout.id, checkout.keyId, this.deps.clock()))!;
  }

  /** An open or canceled session priced now. */
  private view(checkout: StoredCheckout, catalog: LiveCatalog): CheckoutSessionView {
    return sessionView(checkout, assess(checkout, catalog, this.ratesFor(checkout.currency)));
  }

  private ratesFor(currency: string): ShippingRate[] {
    return shippingRatesFor(currency, this.deps.shippingAmounts);
  }

  /** The option if it is offered in the currency, else `unknown_fulfillment_option`. */
  private offeredOption(currency: string, optionId: string): string {
    const offered = this.ratesFor(currency).map((rate) => rate.id);
    if (!offered.includes(optionId)) {
      throw refused(`Fulfillment option ${optionId} is not offered in ${currency}; offered: ${offered.join(', ')}.`, {
        kind: 'unknown_fulfillment_option',
        optionId,
        offered,
      });
    }
    return optionId;
  }

  /** Runs `attempt` again while it lost a race to another write of the session (undefined). */
  private async untilWritten<T extends object>(checkoutId: string, attempt: () => Promise<T | undefined>): Promise<T> {
    for (let attempts = 1; ; attempts++) {
      const result = await attempt();
      if (result) return result;
      if (attempts === MAX_WRITE_ATTEMPTS) throw new Error(`Checkout ${checkoutId} kept changing during ${MAX_WRITE_ATTEMPTS} attempts`);
    }
  }
}

function refused(message: string, refusal: SandboxRefusal): SandboxRefusalError {
  return new SandboxRefusalError(message, refusal);
}

function notFound(resource: 'checkout' | 'cart' | 'order', id: string): SandboxRefusalError {
  return refused(`No ${resource} ${id} belongs to this key.`, { kind: 'not_found', resource, id });
}

function requireCheckoutScope(principal: SandboxPrincipal): void {
  requireScope(principal, CHECKOUT_SCOPE);
}

/** The session if it is open; a completed or canceled one is `not_modifiable`. */
function openOrRefused(checkout: StoredCheckout): StoredCheckout {
  if (checkout.status !== 'open') {
    throw refused(`Checkout ${checkout.id} is ${checkout.status} and can no longer change.`, { kind: 'not_modifiable', status: checkout.status });
  }
  return checkout;
}

/**
 * `input` as the session's lines: at most MAX_CHECKOUT_LINES given, one line per variant
 * (quantities added up, each 1 to MAX_QUANTITY), each marked offered if its variant is
 * in the catalog now or was when `before` took it.
 */
function sessionLines(catalog: LiveCatalog, input: readonly CheckoutLineInput[], before: readonly CheckoutLine[]): CheckoutLine[] {
  if (input.length > MAX_CHECKOUT_LINES) {
    throw refused(`${input.length} lines given; a session takes at most ${MAX_CHECKOUT_LINES}.`, { kind: 'too_many_lines', given: input.length, max: MAX_CHECKOUT_LINES });
  }
  const offeredBefore = new Set(before.filter((line) => line.offered).map((line) => line.variant_id));
  return mergeLines(input).map((line) => {
    if (line.quantity < 1 || line.quantity > MAX_QUANTITY) {
      throw refused(`The session would hold ${line.quantity} of variant ${line.variant_id}; from 1 to ${MAX_QUANTITY} per variant.`, {
        kind: 'quantity_out_of_range',
        variantId: line.variant_id,
        quantity: line.quantity,
        max: MAX_QUANTITY,
      });
    }
    return offeredBefore.has(line.variant_id) ? { ...line, offered: true } : offeredIn(catalog, line);
  });
}

function offeredIn(catalog: LiveCatalog, line: { variant_id: string; quantity: number }): CheckoutLine {
  return catalog.variantById.has(line.variant_id) ? { ...line, offered: true } : line;
}

/** The buyer fields the sandbox keeps, and nothing else a client sent beside them. */
function buyerOf(buyer: CheckoutBuyer): CheckoutBuyer {
  const fields = pick(buyer, ['first_name', 'last_name', 'email', 'phone_number']);
  return buyer.consent ? { ...fields, consent: pick(buyer.consent, ['analytics', 'preferences', 'marketing', 'sale_of_data']) } : fields;
}

/** The address fields the sandbox keeps, the country upper-case. */
function addressOf(address: CheckoutAddress): CheckoutAddress {
  const fields = pick(address, ['name', 'first_name', 'last_name', 'line_one', 'line_two', 'city', 'state', 'postal_code', 'phone_number']);
  return { ...fields, country: address.country.toUpperCase() };
}

function pick<T extends object, K extends keyof T>(value: T, keys: readonly K[]): Pick<T, K> {
  return Object.fromEntries(keys.filter((key) => value[key] !== undefined).map((key) => [key, value[key]])) as Pick<T, K>;
}
