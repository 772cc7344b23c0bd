import { availabilityOf } from '../../catalog/model/availability.js';
import { titleIn, type Taxonomy } from '../../catalog/model/taxonomy.js';
import type { Market } from '../../catalog/queries/market.js';
import { variantDisplayName } from '../../catalog/queries/render.js';
import { minorPriceIn } from '../../catalog/read-model/pricing.js';
import { displayImages, textIn, type CatalogProduct, type CatalogVariant } from '../../catalog/read-model/product.js';
import type { FeedProduct, FeedVariant } from './feed-schemas.js';

/*
 * A product of the catalog in the release's feed shape (schema.feed.json, Product and
 * Variant): what an agent indexes before it creates a checkout, rendered in one market
 * with the rules of /public/v1 (the market's region prices, in minor units; availability
 * from stock; published products only, since the live catalog holds nothing else).
 */

/** Separates the titles of a category path, as the release's example of a category value does. */
const PATH_SEPARATOR = ' > ';

/**
 * Renders products of one catalog state in one market. Category paths are worked out once
 * per renderer: a feed names the same few hundred categories on every product.
 */
export class FeedRenderer {
  readonly #categoryPaths = new Map<string, string | undefined>();

  constructor(
    private readonly market: Market,
    private readonly taxonomy: Taxonomy,
    private readonly productUrl: (product: CatalogProduct) => string,
  ) {}

  /**
   * The product with every variant. The variant's id is the checkout item id. A variant
   * without a price in the market has none here and is not available: the market cannot
   * buy it.
   */
  product(product: CatalogProduct): FeedProduct {
    const text = textIn(product, this.market.locale);
    const categories = product.categories.flatMap((handle) => {
      const value = this.#categoryPath(handle);
      return value === undefined ? [] : [{ value, taxonomy: 'merchant' as const }];
    });
    const media = displayImages(product).map(({ url, alt }) => ({ type: 'image' as const, url, ...(alt !== null && { alt_text: alt }) }));
    return {
      id: product.id,
      title: text.title,
      ...(text.description !== null && text.description !== '' && { description: { plain: text.description } }),
      url: this.productUrl(product),
      ...(media.length > 0 && { media }),
      variants: product.variants.map((variant) => this.#variant(product, variant, text.title, categories)),
    };
  }

  #variant(product: CatalogProduct, variant: CatalogVariant, productTitle: string, categories: NonNullable<FeedVariant['categories']>): FeedVariant {
    const amount = minorPriceIn(variant, this.market.region);
    const stock = availabilityOf(variant);
    const options = variantDisplayName(variant);
    return {
      id: variant.id,
      title: options === null ? productTitle : `${productTitle} - ${options}`,
      ...(amount !== null && { price: { amount, currency: this.market.currency } }),
      availability: amount === null ? { available: false } : { available: stock.purchasable, status: stock.status },
      ...(categories.length > 0 && { categories }),
      ...(product.optionNames.length > 0 && { variant_options: product.optionNames.map((name, i) => ({ name, value: variant.optionValues[i]! })) }),
    };
  }

  /** The category's titles from the top of the tree down, in the market's locale; undefined for a handle the taxonomy does not hold (left out, as /public/v1 does). */
  #categoryPath(handle: string): string | undefined {
    if (this.#categoryPaths.has(handle)) return this.#categoryPaths.get(handle);
    const titles: string[] = [];
    for (let category = this.taxonomy.category(handle); category; category = category.parent === null ? undefined : this.taxonomy.category(category.parent)) {
      titles.unshift(titleIn(category.titles, this.market.locale));
    }
    const path = titles.length === 0 ? undefined : titles.join(PATH_SEPARATOR);
    this.#categoryPaths.set(handle, path);
    return path;
  }
}

/**
 * What a push says of a product the catalog no longer serves (withdrawn, deleted): the
 * release defers deletion through partial updates (rfc.product_feeds.md, 3.4), so the
 * product is upserted with no variants, leaving nothing of it to buy; a full
 * replacement from the feed document drops it.
 */
export function goneProduct(productId: string): FeedProduct {
  return { id: productId, variants: [] };
}
