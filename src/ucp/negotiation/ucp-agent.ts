import { parseDictionary } from 'structured-headers';

/**
 * Why a platform's profile URL cannot be used before anything is fetched: a missing or
 * malformed `UCP-Agent` header or `meta.ucp-agent`, or a URL the service will not fetch.
 */
export class InvalidProfileUrl extends Error {}

/** The longest profile URL taken: longer ones are refused unread. */
const MAX_URL_LENGTH = 2048;

/**
 * The platform profile URL of a REST request: the `profile` member (a string) of the
 * `UCP-Agent` header, an RFC 8941 dictionary (overview.md, Platform Advertisement on
 * Request). Several header lines are one dictionary, joined as RFC 9110 joins them.
 */
export function profileUrlFromHeader(header: string | string[] | undefined): string {
  if (header === undefined) throw new InvalidProfileUrl('The UCP-Agent header is missing: send UCP-Agent: profile="<URL of your platform profile>".');
  let dictionary: ReturnType<typeof parseDictionary>;
  try {
    dictionary = parseDictionary(Array.isArray(header) ? header.join(', ') : header);
  } catch {
    throw new InvalidProfileUrl('The UCP-Agent header is not an RFC 8941 dictionary: send UCP-Agent: profile="<URL of your platform profile>" (the URL in double quotes).');
  }
  const value = dictionary.get('profile')?.[0];
  if (typeof value !== 'string') throw new InvalidProfileUrl('The UCP-Agent header has no profile member holding a string: send profile="<URL of your platform profile>" (in double quotes).');
  return value;
}

/** The platform profile URL of an MCP tool call: `meta["ucp-agent"].profile` of its arguments. */
export function profileUrlFromMeta(meta: unknown): string {
  const profile = (meta as { 'ucp-agent'?: { profile?: unknown } } | null | undefined)?.['ucp-agent']?.profile;
  if (typeof profile !== 'string') throw new InvalidProfileUrl('The arguments have no meta["ucp-agent"].profile: pass meta: { "ucp-agent": { "profile": "<URL of your platform profile>" } }.');
  return profile;
}

/**
 * `url` parsed, if the service may fetch it: https (overview.md, Fetching 1), or with
 * `allowLoopbackHttp` also http, which the fetcher then sends to loopback addresses only.
 */
export function parseProfileUrl(url: string, allowLoopbackHttp: boolean): URL {
  if (url.length > MAX_URL_LENGTH) throw new InvalidProfileUrl(`The profile URL is longer than ${MAX_URL_LENGTH} characters.`);
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new InvalidProfileUrl(`The profile URL "${url}" is not an absolute URL.`);
  }
  const http = parsed.protocol === 'http:' && allowLoopbackHttp;
  if (parsed.protocol !== 'https:' && !http) {
    throw new InvalidProfileUrl(
      allowLoopbackHttp
        ? 'The profile URL must be https, or http on a loopback address (UCP_ALLOW_LOOPBACK_HTTP is set).'
        : 'The profile URL must be https (overview.md, Profile Requirements).',
    );
  }
  if (parsed.username !== '' || parsed.password !== '') throw new InvalidProfileUrl('The profile URL must not carry credentials.');
  return parsed;
}
