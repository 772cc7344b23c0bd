import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

/** A platform's capability as its profile declares it, at one version. */
export interface CapabilityOffer {
  version: string;
  /** Parent capabilities of an extension. */
  extends?: readonly string[];
  config?: Record<string, unknown>;
}

/** What negotiation needs of a platform profile that passed validation. */
export interface PlatformProfile {
  version: string;
  capabilities: ReadonlyMap<string, readonly CapabilityOffer[]>;
}

const VERSION = { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}$' };
const NAME = { type: 'string', pattern: '^[a-z][a-z0-9]*(?:\\.[a-z][a-z0-9_]*)+$' };
const URI = { type: 'string', format: 'uri' };
const OBJECT = { type: 'object' };
const registry = (entry: object) => ({ type: 'object', propertyNames: NAME, additionalProperties: { type: 'array', items: entry } });

/**
 * A platform profile as overview.md (Platform Profile) and the release's discovery schema
 * describe it: `ucp` with a dated version, services, capabilities and payment handlers
 * keyed by reverse-domain names, each entry with its version, spec and schema URLs, and
 * optional signing keys (JWK). Written here from the specification's meaning; what it
 * does not constrain (extra fields, a capability's config) is let through.
 */
const PLATFORM_PROFILE = {
  type: 'object',
  required: ['ucp'],
  properties: {
    ucp: {
      type: 'object',
      required: ['version', 'services', 'payment_handlers'],
      properties: {
        version: VERSION,
        services: registry({
          type: 'object',
          required: ['version', 'spec', 'transport'],
          properties: { version: VERSION, spec: URI, schema: URI, endpoint: URI, transport: { enum: ['rest', 'mcp', 'a2a', 'embedded'] }, config: OBJECT },
        }),
        capabilities: registry({
          type: 'object',
          required: ['version', 'spec', 'schema'],
          properties: {
            version: VERSION,
            spec: URI,
            schema: URI,
            extends: { oneOf: [NAME, { type: 'array', items: NAME, minItems: 1 }] },
            config: OBJECT,
          },
        }),
        payment_handlers: registry({
          type: 'object',
          required: ['id', 'version', 'spec', 'schema'],
          properties: {
            id: { type: 'string' },
            version: VERSION,
            spec: URI,
            schema: URI,
            available_instruments: { type: 'array', minItems: 1, items: { type: 'object', required: ['type'], properties: { type: { type: 'string' }, constraints: OBJECT } } },
            config: OBJECT,
          },
        }),
      },
    },
    signing_keys: {
      type: 'array',
      items: { type: 'object', required: ['kid', 'kty'], properties: { kid: { type: 'string' }, kty: { type: 'string' }, use: { enum: ['sig', 'enc'] } } },
    },
  },
};

const ajv = new Ajv2020({ strict: false });
addFormats.default(ajv);
const validate = ajv.compile(PLATFORM_PROFILE);

/** Why a fetched profile cannot be used: not JSON, or not a platform profile. */
export class MalformedProfile extends Error {}

/** The profile in `body`, checked; a MalformedProfile names the first thing wrong with it. */
export function readPlatformProfile(body: Buffer): PlatformProfile {
  let document: unknown;
  try {
    document = JSON.parse(body.toString('utf8'));
  } catch {
    throw new MalformedProfile('The platform profile is not JSON.');
  }
  if (!validate(document)) {
    const [first] = validate.errors ?? [];
    throw new MalformedProfile(`The platform profile is not a valid UCP platform profile: ${first?.instancePath || '/'} ${first?.message ?? 'is invalid'}.`);
  }
  const { ucp } = document as { ucp: { version: string; capabilities?: Record<string, { version: string; extends?: string | string[]; config?: Record<string, unknown> }[]> } };
  const capabilities = new Map(
    Object.entries(ucp.capabilities ?? {}).map(([name, offers]) => [
      name,
      offers.map(({ version, extends: parents, config }) => ({
        version,
        ...(parents !== undefined && { extends: [parents].flat() }),
        ...(config !== undefined && { config }),
      })),
    ]),
  );
  return { version: ucp.version, capabilities };
}
