import { Type } from 'typebox';
import { HttpProblem } from '../http/problem.js';

/**
 * docs/decisions.md, Scenarios: failures a client asks for on purpose, per request (the
 * `Sandbox-Scenario` header on REST, the `scenario` argument of the MCP tools), so that
 * its recovery can be rehearsed. Each answers as the real failure does; none touches the
 * public catalog, another key's cart or the real rate-limit counters.
 */
export const SCENARIOS = ['unavailable', 'rate_limited', 'out_of_stock', 'price_changed'] as const;
export type Scenario = (typeof SCENARIOS)[number];

/** What key issuance can rehearse: there is no cart to run out of stock or change price. */
export const KEY_SCENARIOS = ['unavailable', 'rate_limited'] as const satisfies readonly Scenario[];

/** Short, so that a client's wait-and-retry rehearsal is quick; fixed, so that it can be asserted. */
export const SIMULATED_RETRY_AFTER_SECONDS = 1;

/** price_changed raises every unit price of the cart by this much. */
export const PRICE_CHANGE_PERCENT = 10;

const DESCRIPTIONS: Record<Scenario, string> = {
  unavailable: `503 sandbox_unavailable with Retry-After: ${SIMULATED_RETRY_AFTER_SECONDS}, as while the sandbox store is unreachable. Nothing is changed.`,
  rate_limited: `429 sandbox_rate_limited with Retry-After: ${SIMULATED_RETRY_AFTER_SECONDS} and the RateLimit headers (RateLimit-Limit the configured limit, RateLimit-Remaining 0, RateLimit-Reset ${SIMULATED_RETRY_AFTER_SECONDS}). Nothing is changed, and the real rate-limit counters are not touched: the call counts once, like any other.`,
  out_of_stock: `Adding an item (POST /sandbox/v1/carts/{id}/items, the add_item action, the add_to_cart tool) or setting a positive quantity (POST /sandbox/v1/carts/{id}/items/{variant_id}, the update_cart_item tool) answers 422 sandbox_variant_not_purchasable, as for an out-of-stock variant, and changes nothing. The catalog is not touched; calls that add nothing answer as usual.`,
  price_changed: `From this call's answer on, every unit price of this cart is ${PRICE_CHANGE_PERCENT}% above the live catalog price (rounded half up to the minor unit, at least one minor unit more), totals and checkout included. Only this cart changes; the catalog and other carts do not. It takes effect only if the call succeeds; asking again changes nothing more.`,
};

/** The scenarios as `GET /sandbox/v1` lists them. */
export const SCENARIO_LIST = SCENARIOS.map((name) => ({ name, description: DESCRIPTIONS[name] }));

/**
 * The request header (REST) or argument (MCP) naming a scenario, accepting `names`; any
 * other value is 400 sandbox_invalid_request naming the parameter and the values.
 */
export function scenarioParameter(names: readonly Scenario[]) {
  const listed = names.map((name) => `\`${name}\`: ${DESCRIPTIONS[name]}`).join(' ');
  return Type.Optional(
    Type.Enum([...names], {
      description: `Rehearses a failure on purpose; omitted, the call runs as usual. It acts after the checks every call passes first (key, scope, the cart's owner), and its failures are not stored for an idempotent replay. A replay wins over a scenario: when an answer is already stored under the request's Idempotency-Key, that answer is replayed and the scenario is not applied (price_changed marks nothing). ${listed}`,
    }),
  );
}

/**
 * A scenario's failure. It is the sandbox's answer to this one request and nothing more:
 * the idempotency store does not record it, so a retry under the same key runs for real.
 */
export class SimulatedFailure extends HttpProblem {}

/**
 * unavailable and rate_limited fail the call here: after authentication, scope and
 * ownership, so a scenario cannot tell another key's cart from a missing one.
 * `rateLimit` is the configured limit the call counts against (0: none, no RateLimit headers).
 */
export function failIfRehearsed(scenario: Scenario | undefined, rateLimit: number): void {
  const simulated = `Simulated by the ${scenario} scenario`;
  if (scenario === 'unavailable') {
    throw new SimulatedFailure(503, 'sandbox_unavailable', `${simulated}: the sandbox is unavailable; retry shortly.`, {
      retryAfter: SIMULATED_RETRY_AFTER_SECONDS,
    });
  }
  if (scenario === 'rate_limited') {
    throw new SimulatedFailure(429, 'sandbox_rate_limited', `${simulated}: rate limit exceeded; retry after ${SIMULATED_RETRY_AFTER_SECONDS} s.`, {
      retryAfter: SIMULATED_RETRY_AFTER_SECONDS,
      ...(rateLimit > 0 && {
        headers: {
          'ratelimit-limit': String(rateLimit),
          'ratelimit-remaining': '0',
          'ratelimit-reset': String(SIMULATED_RETRY_AFTER_SECONDS),
        },
      }),
    });
  }
}

/** out_of_stock refuses the variant being added or raised, as the cart refuses one that is out of stock. */
export function refuseIfOutOfStockRehearsed(scenario: Scenario | undefined, variantId: string): void {
  if (scenario === 'out_of_stock') {
    throw new SimulatedFailure(422, 'sandbox_variant_not_purchasable', `Simulated by the out_of_stock scenario: variant ${variantId} is out of stock.`);
  }
}

/** A cart's contents as the scenario leaves them: price_changed marks them (the same object when already marked or another scenario). */
export function rehearsedContents<C extends { price_changed?: true }>(scenario: Scenario | undefined, contents: C): C {
  return scenario === 'price_changed' && !contents.price_changed ? { ...contents, price_changed: true } : contents;
}

/** A unit price (minor units) on a cart that rehearsed price_changed. */
export function changedUnitPrice(minor: number): number {
  return Math.max(minor + 1, Math.round((minor * (100 + PRICE_CHANGE_PERCENT)) / 100));
}
