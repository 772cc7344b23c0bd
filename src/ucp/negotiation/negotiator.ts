import { LRUCache } from 'lru-cache';
import type { UcpConfig } from '../../config.js';
import { OutboundClient, OutboundError } from '../../http/outbound.js';
import { SERVED_CAPABILITIES } from '../capabilities.js';
import { negotiationFailure, UcpProtocolError, type NegotiationFailure } from '../errors.js';
import { ROOT_CAPABILITIES, UCP_VERSION } from '../version.js';
import { intersectCapabilities, type CapabilityOffers, type NegotiatedCapability } from './intersection.js';
import type { Negotiated } from './negotiated.js';
import { MalformedProfile, readPlatformProfile, type PlatformProfile } from './platform-profile.js';
import { InvalidProfileUrl, parseProfileUrl, profileUrlFromHeader, profileUrlFromMeta } from './ucp-agent.js';

export interface NegotiatorOptions {
  config: UcpConfig;
  /** Where a buyer can carry on when negotiation fails (the storefront). */
  continueUrl: string;
  clock: () => Date;
}

/** overview.md, Fetching 4: a profile is kept at least this long, whatever its Cache-Control says. */
const TTL_FLOOR_MS = 60_000;
/** Ours: a profile is fetched again after an hour at most, so a platform's change of profile is seen. */
const TTL_CEILING_MS = 3_600_000;
/** A profile that could not be used is not fetched again for this long, doubling with each failure in a row up to the ceiling. */
const FIRST_BACKOFF_MS = 1000;
const BACKOFF_CEILING_MS = 60_000;
/** Distinct profiles fetched at once; past it a request is refused (503) until one is done, so the outbound load stays bounded whatever the number of platforms. */
const MAX_CONCURRENT_FETCHES = 64;

interface CacheEntry {
  /** Epoch ms until which the entry answers. */
  until: number;
  profile?: PlatformProfile;
  failure?: UcpProtocolError;
  /** Failures in a row (0 after a success). */
  failures: number;
}

/** The business's capabilities as the intersection takes them. */
const BUSINESS_OFFERS: CapabilityOffers = new Map(
  SERVED_CAPABILITIES.map(({ name, extends: parents }) => [name, [{ version: UCP_VERSION, ...(parents && { extends: parents }) }]]),
);

/**
 * Negotiation with a platform (overview.md, Negotiation Protocol): its profile is fetched
 * through the guarded outbound client (https to public addresses only; with
 * UCP_ALLOW_LOOPBACK_HTTP also http to loopback addresses only), validated, and kept in a
 * bounded LRU cache (docs/ucp.md, Negotiation); its version is checked and its
 * capabilities intersected with this service's. Close it when done.
 */
export class Negotiator {
  readonly #https: OutboundClient;
  readonly #loopbackHttp: OutboundClient | undefined;
  readonly #cache: LRUCache<string, CacheEntry>;
  readonly #fetching = new Map<string, Promise<PlatformProfile>>();

  constructor(private readonly options: NegotiatorOptions) {
    const { profileTimeoutMs: timeoutMs, profileMaxBytes: maxResponseBytes, allowLoopbackHttp, profileCacheSize } = options.config;
    this.#https = new OutboundClient({ targets: 'public', timeoutMs, maxResponseBytes });
    this.#loopbackHttp = allowLoopbackHttp ? new OutboundClient({ targets: 'loopback', timeoutMs, maxResponseBytes }) : undefined;
    this.#cache = new LRUCache({ max: profileCacheSize });
  }

  /** REST: negotiates with the platform the `UCP-Agent` header names. */
  fromHeader(header: string | string[] | undefined): Promise<Negotiated> {
    return this.#negotiate(() => profileUrlFromHeader(header));
  }

  /** MCP: negotiates with the platform a tool call's `meta["ucp-agent"].profile` names. */
  fromMeta(meta: unknown): Promise<Negotiated> {
    return this.#negotiate(() => profileUrlFromMeta(meta));
  }

  /** Negotiates with the platform whose profile URL `read` finds; a failure is a UcpProtocolError (overview.md, Error Handling). */
  async #negotiate(read: () => string): Promise<Negotiated> {
    const profileUrl = this.#read(read);
    const profile = await this.#profile(profileUrl);
    if (profile.version !== UCP_VERSION) {
      throw this.#failure('version_unsupported', `Protocol version ${profile.version} is not supported. This business supports version ${UCP_VERSION}.`);
    }
    const capabilities = intersectCapabilities(BUSINESS_OFFERS, profile.capabilities);
    const orderWebhookUrl = this.#orderWebhookUrl(profile, capabilities.get(ROOT_CAPABILITIES.order));
    return { version: UCP_VERSION, capabilities, platformProfileUrl: profileUrl, ...(orderWebhookUrl !== undefined && { orderWebhookUrl }) };
  }

  /** What `read` answers; a profile URL it finds malformed (or none) is invalid_profile_url. */
  #read<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      if (error instanceof InvalidProfileUrl) throw this.#failure('invalid_profile_url', error.message);
      throw error;
    }
  }

  close(): Promise<unknown> {
    return Promise.all([this.#https.close(), this.#loopbackHttp?.close()]);
  }

  async #profile(profileUrl: string): Promise<PlatformProfile> {
    const url = this.#read(() => parseProfileUrl(profileUrl, this.#loopbackHttp !== undefined));
    const key = url.href;
    const cached = this.#cache.get(key);
    if (cached && cached.until > this.#now()) {
      if (cached.failure) throw cached.failure;
      return cached.profile!;
    }
    let fetching = this.#fetching.get(key);
    if (!fetching) {
      if (this.#fetching.size >= MAX_CONCURRENT_FETCHES) {
        throw new UcpProtocolError(503, 'discovery_busy', 'Too many platform profiles are being fetched at once: retry shortly.', { retryAfter: 1 });
      }
      fetching = this.#fetch(url, cached?.failures ?? 0).finally(() => this.#fetching.delete(key));
      this.#fetching.set(key, fetching);
    }
    return fetching;
  }

  async #fetch(url: URL, failuresBefore: number): Promise<PlatformProfile> {
    try {
      const client = url.protocol === 'https:' ? this.#https : this.#loopbackHttp!;
      const answer = await client.get(url.href, { accept: 'application/json' });
      if (answer.status < 200 || answer.status > 299) {
        const redirect = answer.status >= 300 && answer.status < 400 ? ' (redirects are not followed: serve the profile at this URL)' : '';
        throw this.#failure('profile_unreachable', `The platform profile answered HTTP ${answer.status}${redirect}.`);
      }
      const profile = readPlatformProfile(answer.body);
      this.#checkWebhookUrls(profile);
      this.#cache.set(url.href, { until: this.#now() + cacheLifetimeMs(answer.headers['cache-control']), profile, failures: 0 });
      return profile;
    } catch (error) {
      const failure = this.#fetchFailure(error);
      const failures = failuresBefore + 1;
      this.#cache.set(url.href, { until: this.#now() + Math.min(BACKOFF_CEILING_MS, FIRST_BACKOFF_MS * 2 ** (failures - 1)), failure, failures });
      throw failure;
    }
  }

  #fetchFailure(error: unknown): UcpProtocolError {
    if (error instanceof UcpProtocolError) return error;
    if (error instanceof MalformedProfile) return this.#failure('profile_malformed', error.message);
    if (error instanceof OutboundError) {
      if (error.reason === 'refused' || error.reason === 'unresolved') return this.#failure('invalid_profile_url', `The profile URL cannot be fetched: ${error.message}.`);
      return this.#failure('profile_unreachable', `The platform profile could not be fetched: ${error.message}.`);
    }
    throw error;
  }

  /**
   * order.md, Webhook URL Configuration: a platform's order capability may name where it
   * takes order events. A URL there must be https (or, with UCP_ALLOW_LOOPBACK_HTTP,
   * http); where it points is checked when an event is sent, by the delivery's own guard.
   */
  #checkWebhookUrls(profile: PlatformProfile): void {
    for (const offer of profile.capabilities.get(ROOT_CAPABILITIES.order) ?? []) {
      const url = offer.config?.webhook_url;
      if (url === undefined) continue;
      let protocol: string | undefined;
      try {
        protocol = typeof url === 'string' ? new URL(url).protocol : undefined;
      } catch {
        protocol = undefined;
      }
      if (protocol !== 'https:' && !(protocol === 'http:' && this.#loopbackHttp)) {
        throw new MalformedProfile(`The platform profile's ${ROOT_CAPABILITIES.order} config.webhook_url must be an https URL.`);
      }
    }
  }

  #orderWebhookUrl(profile: PlatformProfile, order: NegotiatedCapability | undefined): string | undefined {
    if (!order) return undefined;
    const offer = profile.capabilities.get(ROOT_CAPABILITIES.order)?.find((candidate) => candidate.version === order.version);
    return offer?.config?.webhook_url as string | undefined;
  }

  #failure(code: NegotiationFailure, content: string): UcpProtocolError {
    return negotiationFailure(code, content, this.options.continueUrl);
  }

  #now(): number {
    return this.options.clock().getTime();
  }
}

/** How long a fetched profile is kept: its Cache-Control max-age, within the floor and the ceiling. */
function cacheLifetimeMs(cacheControl: string | string[] | undefined): number {
  const maxAge = /(?:^|[,\s])max-age\s*=\s*"?(\d+)"?/i.exec([cacheControl ?? ''].flat().join(','))?.[1];
  return Math.min(TTL_CEILING_MS, Math.max(TTL_FLOOR_MS, maxAge === undefined ? 0 : Number(maxAge) * 1000));
}
