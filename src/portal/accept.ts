import Negotiator from 'negotiator';

/** What `/` can answer, JSON first: a tie (a wildcard, no Accept at all) goes to JSON. */
const MEDIA_TYPES = ['application/json', 'text/html'];

/**
 * Whether the client prefers HTML to JSON (RFC 9110, 12.5.1, as `negotiator` ranks
 * media ranges): browsers name text/html first and take anything else at a lower
 * quality, while API clients send a wildcard, application/json or nothing, which rank
 * the two alike (or JSON first) and get JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  return new Negotiator({ headers: { accept } }).mediaType(MEDIA_TYPES) === 'text/html';
}
