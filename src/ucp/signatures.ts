import { createHash } from 'node:crypto';
import { createSigner, httpbis } from 'http-message-signatures';
import { serializeDictionary } from 'structured-headers';
import type { BusinessSigningKey } from './profile/signing-key.js';

/** A request to sign: its method, target, headers (names in lower case) and body. */
export interface RequestToSign {
  method: 'POST';
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** signatures.md's signature label (`sig1=...`), as the release's examples write it. */
const SIGNATURE_LABEL = 'sig1';

/** RFC 9530 `Content-Digest` of `body`'s bytes: a dictionary whose `sha-256` is the digest as a byte sequence (signatures.md, REST Binding). */
export function contentDigest(body: string): string {
  return `sha-256=:${createHash('sha256').update(body).digest('base64')}:`;
}

/** The `UCP-Agent` header naming a profile: an RFC 8941 dictionary whose `profile` is the URL (overview.md). */
export function ucpAgentHeader(profileUrl: string): string {
  return serializeDictionary(new Map([['profile', [profileUrl, new Map()]]]));
}

/**
 * The request's headers with `Content-Digest`, `Signature-Input` and `Signature`, signed
 * as signatures.md, REST Request Signing says, with RFC 9421 HTTP Message Signatures
 * (npm `http-message-signatures`): `ecdsa-p256-sha256` with the business key, whose
 * signature is the fixed-width r||s (IEEE P1363) encoding, not DER. The components are
 * the method, authority and path, the query when there is one, `ucp-agent` when the
 * request names a profile, and the body's digest and type. The one parameter is `keyid`
 * (the profile's `kid`), as order.md's example has it: no `alg` (the verifier takes it
 * from the key) and no `created`, which signatures.md leaves optional (replays are
 * de-duplicated by the business layer) and which a receiver whose clock runs behind
 * would take for a signature from the future.
 */
export async function signRequest(key: BusinessSigningKey, request: RequestToSign): Promise<Record<string, string>> {
  const headers = { ...request.headers, 'content-digest': contentDigest(request.body) };
  const fields = [
    '@method',
    '@authority',
    '@path',
    ...(new URL(request.url).search !== '' ? ['@query'] : []),
    ...('ucp-agent' in headers ? ['ucp-agent'] : []),
    'content-digest',
    'content-type',
  ];
  const signed = await httpbis.signMessage(
    {
      key: createSigner(key.privateKey, 'ecdsa-p256-sha256', key.publicJwk.kid),
      name: SIGNATURE_LABEL,
      fields,
      params: ['keyid'],
    },
    { method: request.method, url: request.url, headers },
  );
  return signed.headers as Record<string, string>;
}
