import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type JsonWebKey, type KeyObject } from 'node:crypto';
import type { Db } from '../../store/database.js';
import { deploymentSecret } from '../../store/deployment-secrets.js';

/** The business's public key as its profile publishes it (`signing_keys`, JWK). */
export interface PublicSigningKey {
  kid: string;
  kty: 'EC';
  crv: 'P-256';
  x: string;
  y: string;
  use: 'sig';
  alg: 'ES256';
}

/** The key this business signs with (order webhooks, signatures.md): its private half, and the public JWK its profile publishes. */
export interface BusinessSigningKey {
  privateKey: KeyObject;
  publicJwk: PublicSigningKey;
}

const SECRET_NAME = 'ucp_business_signing_key';

/**
 * The deployment's EC P-256 signing key, kept as a deployment secret (PKCS #8): made by
 * the first instance that starts, so every instance signs with the same key and every
 * profile publishes it. Its `kid` is its RFC 7638 thumbprint, the same on every instance.
 */
export async function businessSigningKey(db: Db): Promise<BusinessSigningKey> {
  const der = await deploymentSecret(db, SECRET_NAME, () =>
    generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ format: 'der', type: 'pkcs8' }),
  );
  const privateKey = createPrivateKey({ key: der, format: 'der', type: 'pkcs8' });
  const { x, y } = createPublicKey(privateKey).export({ format: 'jwk' }) as Required<Pick<JsonWebKey, 'x' | 'y'>>;
  return { privateKey, publicJwk: { kid: thumbprint(x, y), kty: 'EC', crv: 'P-256', x, y, use: 'sig', alg: 'ES256' } };
}

/** RFC 7638: SHA-256 of the required members in lexicographic order, without whitespace. */
function thumbprint(x: string, y: string): string {
  return createHash('sha256').update(JSON.stringify({ crv: 'P-256', kty: 'EC', x, y })).digest('base64url');
}
