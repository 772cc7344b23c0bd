import type { MarketParameter } from '../catalog/read-model/read-errors.js';
import type { CheckoutProblem, LineProblemKind } from './checkout/problems.js';
import type { PaymentRefusal } from './payment/simulated-payments.js';
import type { SandboxPrincipal } from './auth.js';
import type { Scope } from './scopes.js';

/**
 * Why a protocol-neutral sandbox call did nothing, with what a protocol needs to word
 * its answer. The sandbox knows no protocol: each adapter (UCP, ACP) turns a kind into
 * its own error, status and message, as the catalog's surfaces do with
 * src/catalog/read-model/read-errors.ts. Problems a client can fix on the session itself
 * are not refusals but data on it (src/sandbox/checkout/problems.ts).
 */
export type SandboxRefusal =
  | { kind: 'insufficient_scope'; scope: Scope }
  /** Unknown, expired, or another key's: the same answer, so ids cannot be probed. */
  | { kind: 'not_found'; resource: 'checkout' | 'cart' | 'order'; id: string }
  /** A country, currency or locale that resolves to no market, as the catalog refuses it. */
  | { kind: 'invalid_market'; parameter: MarketParameter; malformed: boolean; accepted: readonly string[] }
  /** A market whose currency the sandbox does not sell in (no region or no shipping amount for it). */
  | { kind: 'unsupported_currency'; currency: string; supported: readonly string[] }
  | { kind: 'too_many_lines'; given: number; max: number }
  /** A line's quantity, once lines naming the same variant are added up, outside 1 to `max`. */
  | { kind: 'quantity_out_of_range'; variantId: string; quantity: number; max: number }
  | { kind: 'unknown_fulfillment_option'; optionId: string; offered: readonly string[] }
  /** A create asked to make nothing rather than a cart or session none of whose lines can be bought; each line and why. */
  | { kind: 'nothing_sellable'; resource: 'cart' | 'checkout'; lines: readonly { variant_id: string; problem: LineProblemKind }[] }
  /** A change, completion or cancellation of a session that is completed or canceled. */
  | { kind: 'not_modifiable'; status: 'completed' | 'canceled' }
  /** A completion of a session with problems; they are listed. */
  | { kind: 'not_ready'; problems: readonly CheckoutProblem[] }
  /**
   * `real_card_refused`: the message never repeats the number. `unknown_instrument`:
   * `accepted` lists the sandbox tokens. `invalid_card`: `accepted` lists the sandbox's
   * test card numbers.
   */
  | { kind: PaymentRefusal; accepted: readonly string[] };

/** A refused call: `message` states it in plain words (an adapter may use it as it is); `refusal` is what it words its answer from. */
export class SandboxRefusalError extends Error {
  constructor(
    message: string,
    readonly refusal: SandboxRefusal,
  ) {
    super(message);
    this.name = 'SandboxRefusalError';
  }
}

/** The services' own scope check: a key without `scope` is refused `insufficient_scope`. */
export function requireScope(principal: SandboxPrincipal, scope: Scope): void {
  if (!principal.scopes.includes(scope)) throw new SandboxRefusalError(`This key lacks the ${scope} scope.`, { kind: 'insufficient_scope', scope });
}

/**
 * `nothing_sellable` when lines were given and every one has a problem: a create asked
 * to make nothing rather than a `resource` none of whose lines can be bought.
 */
export function refuseIfNothingSellable(resource: 'cart' | 'checkout', lines: readonly { variant_id: string; problem?: LineProblemKind }[]): void {
  const unsellable = lines.flatMap(({ variant_id, problem }) => (problem === undefined ? [] : [{ variant_id, problem }]));
  if (lines.length === 0 || unsellable.length < lines.length) return;
  throw new SandboxRefusalError(`None of the ${lines.length} lines can be bought now: no ${resource} was created.`, { kind: 'nothing_sellable', resource, lines: unsellable });
}
