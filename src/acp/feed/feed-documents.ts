import { createHash } from 'node:crypto';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type { CatalogService } from '../../catalog/queries/catalog-service.js';
import type { ChangeFeed } from '../../catalog/queries/change-feed.js';
import { resolveMarket, type Market } from '../../catalog/queries/market.js';
import type { LiveCatalog } from '../../catalog/read-model/live-catalog.js';
import type { CatalogProduct } from '../../catalog/read-model/product.js';
import { CatalogReadError } from '../../catalog/read-model/read-errors.js';
import type { Caching } from '../../http/prepared-body.js';
import type { StreamedAnswer } from '../../http/streamed-body.js';
import { AcpProblem } from '../errors.js';
import { ACP_VERSION } from '../version.js';
import { FeedRenderer } from './feed-product.js';
import type { FeedMetadata } from './feed-schemas.js';

/**
 * The files of the release's offline publication (rfc.product_feeds.md, 3.4): the feed's
 * metadata, and its products as one JSON document (the `ProductsResponse` shape) or as
 * JSON Lines, one `Product` per line.
 */
export type FeedFile = 'metadata.json' | 'products.json' | 'products.jsonl';

/** Characters rendered before they are written and the event loop gets a turn: other requests wait for one piece at most. */
const PIECE_CHARS = 64 * 1024;

const CONTENT_TYPES: Record<FeedFile, string> = {
  'metadata.json': 'application/json; charset=utf-8',
  'products.json': 'application/json; charset=utf-8',
  'products.jsonl': 'application/jsonl; charset=utf-8',
};

export interface FeedMarketInput {
  country: string;
  locale?: string | undefined;
}

/**
 * The feed of each market of the live catalog, as streamed answers. Each answer shows one
 * state of the catalog, the version it was asked at: the served products are listed
 * (references, not renderings) in the request's synchronous stretch, and each is
 * rendered only when its piece is written, so a feed of 100,000 products is never whole
 * in memory, and changes made while it streams show in the next one. The ETag names
 * that version, the market and the file; Last-Modified is the version's time.
 */
export class FeedDocuments {
  /** Part of every tag: a deployment that renders URLs from another STOREFRONT_URL serves other bytes at the same version. */
  readonly #deployment: string;

  constructor(
    private readonly catalog: CatalogService,
    private readonly changeFeed: Pick<ChangeFeed, 'versionTime'>,
    private readonly caching: Caching,
    storefrontUrl: string,
  ) {
    this.#deployment = createHash('sha256').update(`${ACP_VERSION} ${storefrontUrl}`).digest('base64url').slice(0, 12);
  }

  async answer(file: FeedFile, input: FeedMarketInput): Promise<StreamedAnswer> {
    const live = this.catalog.live;
    const market = marketOf(live, input);
    const { version } = live;
    const products = file === 'metadata.json' ? [] : live.products.slice();
    const renderer = new FeedRenderer(market, live.taxonomy, (product) => this.catalog.productUrl(product));
    const time = await this.changeFeed.versionTime(version);
    const text = (): AsyncIterable<string> => {
      if (file === 'metadata.json') return oneText(JSON.stringify(feedMetadata(market, time)));
      return productsText(products, renderer, file === 'products.json');
    };
    return {
      etag: `"acp-feed-${version}-${market.country}-${market.locale}-${file}-${this.#deployment}"`,
      lastModified: time === undefined ? undefined : new Date(time),
      contentType: CONTENT_TYPES[file],
      caching: this.caching,
      text,
    };
  }
}

/** The feed of a market: one per country and locale. */
export const feedId = (market: Pick<Market, 'country' | 'locale'>): string => `${market.country.toLowerCase()}-${market.locale}`;

function feedMetadata(market: Market, time: string | undefined): FeedMetadata {
  return { id: feedId(market), target_country: market.country, ...(time !== undefined && { updated_at: time }) };
}

/** The market of a feed; a country no region serves has no feed (404 feed_not_found). */
export function marketOf(live: LiveCatalog, { country, locale }: FeedMarketInput): Market {
  try {
    return resolveMarket(live, { country, locale });
  } catch (error) {
    if (!(error instanceof CatalogReadError) || error.refusal.kind !== 'invalid_market') throw error;
    const { parameter, malformed, accepted } = error.refusal;
    if (parameter === 'country' && !malformed) {
      throw new AcpProblem(404, 'feed_not_found', `${error.message} Feeds: ${accepted.join(', ')}.`, 'country');
    }
    throw new AcpProblem(400, 'invalid_request', `${error.message} Accepted: ${accepted.join(', ')}.`, parameter);
  }
}

async function* oneText(text: string): AsyncIterable<string> {
  yield text;
}

/** Products rendered one at a time, written a piece at a time, as one `{"products":[...]}` document or as JSON Lines. */
async function* productsText(products: readonly CatalogProduct[], renderer: FeedRenderer, document: boolean): AsyncIterable<string> {
  let piece = document ? '{"products":[' : '';
  for (let i = 0; i < products.length; i++) {
    const text = JSON.stringify(renderer.product(products[i]!));
    piece += document ? (i === 0 ? text : `,${text}`) : `${text}\n`;
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = '';
      await nextTurn();
    }
  }
  if (document) piece += ']}';
  if (piece !== '') yield piece;
}
