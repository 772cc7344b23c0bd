import canonicalize from 'canonicalize';
import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * docs/acp.md, Request signatures: the release asks for a `Signature` over the request
 * and a `Timestamp` (RFC 3339) checked within a clock-skew window, and leaves the
 * algorithm to be agreed out of band. This service's: HMAC-SHA256 with the shared
 * secret over `<Timestamp>.<body>` (the body's bytes as sent, empty without one),
 * base64url without padding.
 */
export function acpSignature(secret: string, timestamp: string, body: string): string {
  return createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('base64url');
}

/**
 * What an MCP tool call signs in place of a body (docs/acp.md, MCP binding): its
 * `payload` argument as RFC 8785 canonical JSON (npm `canonicalize`), which any client
 * makes alike whatever its JSON encoder's key order and spacing; '' without a payload,
 * as a bodiless REST request. Undefined for a payload JSON cannot canonicalise (a lone
 * surrogate in a string): no signature holds for it.
 */
export function signablePayload(payload: unknown): string | undefined {
  if (payload === undefined) return '';
  try {
    return canonicalize(payload);
  } catch {
    return undefined;
  }
}

/** Why a request's signature is refused, for its 401. */
export type SignatureFailure = 'signature_required' | 'timestamp_invalid' | 'timestamp_out_of_window' | 'signature_invalid';

/**
 * Checks a request's signature and timestamp (REST's Signature and Timestamp headers,
 * MCP's `meta.signature` and `meta.timestamp`) over `body`; undefined when they hold.
 * A body that has no signable form (undefined) holds no signature.
 */
export function checkSignature(
  { secret, toleranceSeconds }: { secret: string; toleranceSeconds: number },
  request: { signature: unknown; timestamp: unknown },
  body: string | undefined,
  now: Date,
): SignatureFailure | undefined {
  const { signature, timestamp } = request;
  if (typeof signature !== 'string' || typeof timestamp !== 'string') return 'signature_required';
  // RFC 3339: a date, a time and an offset; Date.parse alone would take far looser forms.
  if (!/^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/.test(timestamp) || Number.isNaN(Date.parse(timestamp))) return 'timestamp_invalid';
  if (Math.abs(now.getTime() - Date.parse(timestamp)) > toleranceSeconds * 1000) return 'timestamp_out_of_window';
  if (body === undefined) return 'signature_invalid';
  const expected = Buffer.from(acpSignature(secret, timestamp, body));
  const given = Buffer.from(signature.trim());
  return given.length === expected.length && timingSafeEqual(given, expected) ? undefined : 'signature_invalid';
}
