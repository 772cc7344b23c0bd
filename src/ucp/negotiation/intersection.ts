import type { CapabilityOffer } from './platform-profile.js';

/** A capability active for a request: the version both parties chose, and the parents of an extension. */
export interface NegotiatedCapability {
  version: string;
  extends?: readonly string[];
}

export type CapabilityOffers = ReadonlyMap<string, readonly CapabilityOffer[]>;

/**
 * overview.md, Intersection Algorithm: every business capability the platform also
 * declares, at the highest version both declare (none in common: left out), then,
 * until nothing changes, every extension none of whose parents is left is left out too.
 * An extension's parents are those the business declares.
 */
export function intersectCapabilities(business: CapabilityOffers, platform: CapabilityOffers): Map<string, NegotiatedCapability> {
  const active = new Map<string, NegotiatedCapability>();
  for (const [name, offers] of business) {
    const theirs = new Set(platform.get(name)?.map((offer) => offer.version));
    const [chosen] = offers.filter((offer) => theirs.has(offer.version)).sort((a, b) => (a.version < b.version ? 1 : a.version > b.version ? -1 : 0));
    if (chosen) active.set(name, { version: chosen.version, ...(chosen.extends && { extends: chosen.extends }) });
  }
  for (let pruned = true; pruned; ) {
    pruned = false;
    for (const [name, { extends: parents }] of active) {
      if (parents && !parents.some((parent) => active.has(parent))) {
        active.delete(name);
        pruned = true;
      }
    }
  }
  return active;
}
