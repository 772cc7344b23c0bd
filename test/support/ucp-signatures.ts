import assert from 'node:assert/strict';
import { createHash, createPublicKey, verify, type JsonWebKey } from 'node:crypto';
import { isInnerList, parseDictionary, serializeInnerList, type InnerList } from 'structured-headers';
import type { ReceivedRequest } from './webhook-receiver.js';

/**
 * A platform's check of a signed UCP webhook (order.md, Webhook Signature Verification;
 * signatures.md, REST Request Verification), written from RFC 9421 and RFC 9530 with
 * Node's crypto alone, independent of the code that signs: the digest of the raw body,
 * the signature base rebuilt from the request as received, and the ES256 signature
 * (fixed-width r||s) checked with the JWK of `signing_keys` whose `kid` the signature
 * names. Returns the covered components and the key's id.
 */
export function verifyUcpSignature(request: ReceivedRequest, signingKeys: JsonWebKey[]): { components: string[]; keyid: string } {
  const header = (name: string): string => {
    const value = request.headers[name];
    assert.equal(typeof value, 'string', `the ${name} header`);
    return value as string;
  };
  assert.equal(header('content-digest'), `sha-256=:${createHash('sha256').update(request.body).digest('base64')}:`, 'Content-Digest is the SHA-256 of the raw body');

  const inputs = parseDictionary(header('signature-input'));
  const signatures = parseDictionary(header('signature'));
  assert.equal(inputs.size, 1, 'one signature');
  const [label, input] = [...inputs][0]!;
  assert.ok(isInnerList(input), 'Signature-Input holds an inner list');
  const [items, params] = input as InnerList;
  const components = items.map(([name]) => name as string);
  const keyid = params.get('keyid');
  assert.equal(typeof keyid, 'string', 'keyid names the key');
  assert.equal(params.has('alg'), false, 'signatures.md: no alg parameter, the key says it');

  const url = new URL(request.path, 'http://placeholder');
  const value = (component: string): string => {
    switch (component) {
      case '@method':
        return 'POST';
      case '@authority':
        return header('host').toLowerCase();
      case '@path':
        return url.pathname;
      case '@query':
        return url.search === '' ? '?' : url.search;
      default:
        assert.ok(!component.startsWith('@'), `unexpected derived component ${component}`);
        return header(component).trim();
    }
  };
  const base = [...components.map((component) => `"${component}": ${value(component)}`), `"@signature-params": ${serializeInnerList(input as InnerList)}`].join('\n');

  const jwk = signingKeys.find((key) => key.kid === keyid);
  assert.ok(jwk, `signing_keys has the key ${String(keyid)}`);
  const signature = signatures.get(label)?.[0];
  assert.ok(signature instanceof ArrayBuffer, 'Signature holds a byte sequence under the same label');
  assert.equal(signature.byteLength, 64, 'ES256: r||s, 32 bytes each, not DER');
  const valid = verify('sha256', Buffer.from(base), { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, Buffer.from(signature));
  assert.ok(valid, `the signature verifies over:\n${base}`);
  return { components, keyid: keyid as string };
}
