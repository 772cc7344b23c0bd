import type { CatalogProduct, Region } from './product.js';
import { availabilityOf } from '../model/availability.js';
import { minorPriceIn, minorPriceRange } from './pricing.js';
import type { SearchIndex } from './search-index.js';

/**
 * What the price and availability filters and the price orders read of each product in
 * one market, by search-index slot in typed arrays: a pass over 100,000 products reads
 * these instead of 100,000 product objects and their variants (scattered over the heap,
 * a cache miss or three each), which cost 60 to 150 ms a pass on this machine.
 *
 * Prices and stock change all day, so an entry is checked against its slot's revision
 * (which the search index moves whenever the slot's product changes) when it is read,
 * and recomputed from the product then: a change costs the next pass one product, not
 * the whole catalog. Made per region on first use; about 25 bytes a slot each.
 */
export class OfferIndex {
  readonly #byRegion = new Map<string, RegionOffers>();

  constructor(private readonly search: SearchIndex) {}

  /** The offers in a region; a replaced Region object (its currency may differ) starts afresh. */
  in(region: Region): RegionOffers {
    let offers = this.#byRegion.get(region.id);
    if (offers?.region !== region) {
      offers = new RegionOffers(this.search, region);
      this.#byRegion.set(region.id, offers);
    }
    return offers;
  }
}

/** No price in the market: sorts after every price. */
const NO_PRICE = Infinity;

export class RegionOffers {
  #revision = new Float64Array(0);
  #lowest = new Float64Array(0);
  #highest = new Float64Array(0);
  #sellable = new Uint8Array(0);

  constructor(
    private readonly search: SearchIndex,
    readonly region: Region,
  ) {}

  /** The lowest variant price in minor units (the product's `price_range.minimum`); Infinity when none has one. */
  lowestPrice(slot: number): number {
    this.#refresh(slot);
    return this.#lowest[slot]!;
  }

  /** Whether a variant can be bought in the market: purchasable, and priced there. */
  sellable(slot: number): boolean {
    this.#refresh(slot);
    return this.#sellable[slot] === 1;
  }

  /** Whether a variant's price lies within the bounds (minor units, inclusive). */
  hasPriceWithin(slot: number, low: number, high: number): boolean {
    this.#refresh(slot);
    const lowest = this.#lowest[slot]!;
    const highest = this.#highest[slot]!;
    if (lowest === NO_PRICE || lowest > high || highest < low) return false;
    if (lowest >= low || highest <= high) return true;
    // The bounds lie strictly between the lowest and the highest price: only the variants can say.
    return this.search.productAt(slot)!.variants.some((variant) => {
      const price = minorPriceIn(variant, this.region);
      return price !== null && price >= low && price <= high;
    });
  }

  #refresh(slot: number): void {
    if (slot >= this.#revision.length) this.#grow(this.search.slotCount);
    const revision = this.search.revisionAt(slot);
    if (this.#revision[slot] === revision) return;
    const product = this.search.productAt(slot);
    if (product) this.#compute(slot, product);
    this.#revision[slot] = revision;
  }

  #compute(slot: number, product: CatalogProduct): void {
    const range = minorPriceRange(product, this.region);
    this.#lowest[slot] = range?.minimum ?? NO_PRICE;
    this.#highest[slot] = range?.maximum ?? -NO_PRICE;
    this.#sellable[slot] = product.variants.some((variant) => availabilityOf(variant).purchasable && minorPriceIn(variant, this.region) !== null) ? 1 : 0;
  }

  /** Room for `slots` (revision 0 is no revision the index gives, so new entries are computed on first read). */
  #grow(slots: number): void {
    const size = Math.max(slots, this.#revision.length * 2);
    const grown = <T extends Float64Array | Uint8Array>(old: T, make: (size: number) => T): T => {
      const array = make(size);
      array.set(old);
      return array;
    };
    this.#revision = grown(this.#revision, (n) => new Float64Array(n));
    this.#lowest = grown(this.#lowest, (n) => new Float64Array(n));
    this.#highest = grown(this.#highest, (n) => new Float64Array(n));
    this.#sellable = grown(this.#sellable, (n) => new Uint8Array(n));
  }
}
