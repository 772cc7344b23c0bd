import { Type, type Static } from 'typebox';
import type { UcpMessage } from '../messages.js';
import type { Negotiated } from '../negotiation/negotiated.js';
import { EXTENSIONS } from '../version.js';

/**
 * The discount extension (discount.md) as the sandbox honours it: it has no discounts,
 * so every submitted code is rejected with a warning `discount_code_invalid` (the
 * extension's code for a code not found) and `applied` stays empty. Rejected codes are
 * not kept: the answer to the request that sent them echoes them with their warnings.
 */

const MAX_CODES = 20;

export const DiscountsInput = Type.Object(
  {
    codes: Type.Optional(
      Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
        maxItems: MAX_CODES,
        description: 'Discount codes to apply: the sandbox has no discounts, so each is rejected with a warning discount_code_invalid.',
      }),
    ),
  },
  { additionalProperties: true, description: 'The discount extension (dev.ucp.shopping.discount), when negotiated; ignored otherwise.' },
);
export type DiscountsInput = Static<typeof DiscountsInput>;

export const Discounts = Type.Object(
  {
    codes: Type.Optional(Type.Array(Type.String(), { description: 'The codes the request sent, each rejected (see messages).' })),
    applied: Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 0, description: 'Always empty: the sandbox applies no discount.' }),
  },
  { description: 'Present when the discount extension is negotiated.' },
);

/**
 * The discount extension's part of an answer to a request that sent `input`: with the
 * extension negotiated, `discounts` and the warnings rejecting each code; without it,
 * nothing (the codes are not read).
 */
export function rejectedDiscounts(negotiated: Negotiated, input: DiscountsInput | undefined): { discounts?: Static<typeof Discounts>; messages: UcpMessage[] } {
  if (!negotiated.capabilities.has(EXTENSIONS.discount)) return { messages: [] };
  const codes = input?.codes;
  return {
    discounts: { ...(codes && { codes }), applied: [] },
    messages: (codes ?? []).map((code, index) => ({
      type: 'warning',
      code: 'discount_code_invalid',
      path: `$.discounts.codes[${index}]`,
      content: `Code ${code} was not applied: the sandbox has no discounts, so every code is rejected.`,
    })),
  };
}
