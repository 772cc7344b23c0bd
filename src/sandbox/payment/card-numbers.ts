/**
 * The sandbox never takes a real card: anything that looks like one is refused before
 * the call does anything, and is neither stored nor repeated in an answer. "Looks like
 * one" is how a person or a test suite writes a card number: 13 to 19 digits, in groups
 * separated by single spaces or dashes or in one run, that pass the Luhn check.
 */

/** A run of digits in which single spaces or dashes may separate groups. */
const DIGIT_GROUPS = /\d+(?:[ -]\d+)*/g;
const MIN_DIGITS = 13;
const MAX_DIGITS = 19;

/**
 * Whether `text` holds a card number: a sequence of whole digit groups of a run (so
 * "2026 4242 4242 4242 4242" is caught, while the digits of one long group are never cut
 * apart: an order number is not a card) with 13 to 19 digits that passes the Luhn check.
 */
export function holdsCardNumber(text: string): boolean {
  for (const [run] of text.matchAll(DIGIT_GROUPS)) {
    const groups = run.split(/[ -]/);
    for (let first = 0; first < groups.length; first++) {
      let digits = '';
      for (let last = first; last < groups.length && digits.length < MAX_DIGITS; last++) {
        digits += groups[last];
        if (digits.length >= MIN_DIGITS && digits.length <= MAX_DIGITS && passesLuhn(digits)) return true;
      }
    }
  }
  return false;
}

/** The Luhn checksum (ISO/IEC 7812-1) that every issued card number satisfies. */
function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * Whether a card number is anywhere in `value`: any string or number in it, at any
 * depth, object keys included. Walked with a stack of its own, so no nesting a client
 * sends can exhaust the call stack.
 */
export function containsCardNumber(value: unknown): boolean {
  const pending: unknown[] = [value];
  while (pending.length > 0) {
    const next = pending.pop();
    if (typeof next === 'string' || typeof next === 'number' || typeof next === 'bigint') {
      if (holdsCardNumber(String(next))) return true;
    } else if (Array.isArray(next)) {
      for (const member of next) pending.push(member);
    } else if (next !== null && typeof next === 'object') {
      for (const [key, member] of Object.entries(next)) pending.push(key, member);
    }
  }
  return false;
}
