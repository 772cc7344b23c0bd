import type { CatalogService } from '../../catalog/queries/catalog-service.js';
import type { AcpFeedPushConfig } from '../../config.js';
import type { ChangedProducts } from '../../delivery/change-consumers.js';
import type { WebhookService } from '../../delivery/webhook-service.js';
import { chunks } from '../../store/chunks.js';
import type { Db } from '../../store/database.js';
import { ACP_VERSION } from '../version.js';
import { marketOf } from './feed-documents.js';
import { FeedRenderer, goneProduct } from './feed-product.js';

/** The change log reader of the push (src/store/change-log-readers.ts). */
export const FEED_PUSH_READER = 'acp-feed';

/** The deliveries' `event_type`, as operators see it in the admin API. */
const FEED_UPSERT = 'acp.feed.products_upserted';

/** Products per upsert: an import batch of 500 products is five requests of a size any Feed API takes. */
const PRODUCTS_PER_PUSH = 100;

/** Who made the Feed API's subscription, as operators see it (`created_by`). */
const CREATED_BY = 'acp';

/** What a delivery stores: the products to upsert and the catalog version they changed at. */
interface StoredPush {
  version: number;
  product_ids: string[];
}

/**
 * rfc.product_feeds.md, API-Based Incremental Upserts: the products each catalog change
 * changed, PATCHed to the agent's Feed API (`{ACP_FEED_PUSH_URL}/feeds/{ACP_FEED_ID}/products`)
 * with its bearer key, through the webhook delivery machinery (src/delivery): the change
 * log is read by a reader of its own, whose every run of changes becomes deliveries of
 * kind `acp_feed` in the transaction that moves it on; then they are sent, retried and
 * leased like any webhook's.
 *
 * A delivery stores the product ids only; each attempt renders them as the catalog serves
 * them then, on an instance that serves at least the version they changed at (an
 * instance behind fails the attempt, to be retried). So a retry never sends a state older
 * than one already sent, and the agent gets the whole current product, as the RFC asks.
 */
export function pushFeedChanges(webhooks: WebhookService, catalog: CatalogService, config: AcpFeedPushConfig): void {
  const target = {
    kind: 'acp_feed' as const,
    url: `${config.url}/feeds/${encodeURIComponent(config.feedId)}/products`,
    description: `ACP feed ${config.feedId} (${config.country}, ${config.locale})`,
    createdBy: CREATED_BY,
  };

  /** The release's UpsertProductsRequest of the stored products, as served now; a product no longer served is upserted without variants (goneProduct). */
  const body = ({ version, product_ids }: StoredPush): string => {
    const live = catalog.live;
    if (live.version < version) throw new Error(`this instance serves catalog version ${live.version}, older than ${version}: retried later`);
    const market = marketOf(live, { country: config.country, locale: config.locale });
    const renderer = new FeedRenderer(market, live.taxonomy, (product) => catalog.productUrl(product));
    const products = product_ids.map((id) => {
      const product = live.productById.get(id);
      return product ? renderer.product(product) : goneProduct(id);
    });
    return JSON.stringify({ products });
  };

  const queue = async (trx: Db, { first, last, productIds }: ChangedProducts): Promise<void> => {
    for (const [index, ids] of [...chunks(productIds, PRODUCTS_PER_PUSH)].entries()) {
      const stored: StoredPush = { version: last, product_ids: ids };
      await webhooks.queue(trx, target, { id: `acp_feed_${first}_${last}_${index}`, type: FEED_UPSERT }, JSON.stringify(stored));
    }
  };

  webhooks.defineKind('acp_feed', {
    method: 'PATCH',
    // The Feed API is https (rfc.product_feeds.md, 5); WEBHOOK_ALLOW_PRIVATE_TARGETS relaxes it, as for every kind.
    httpsOnly: true,
    // Each push carries its products' whole current state: later changes repair what a given-up one missed, so nothing pauses.
    pausesWhenGivenUp: false,
    body: (payload) => body(JSON.parse(payload) as StoredPush),
    sign: async ({ headers }) => ({ ...headers, authorization: `Bearer ${config.key}`, 'api-version': ACP_VERSION }),
  });
  webhooks.addChangeConsumer({ name: FEED_PUSH_READER, upTo: () => catalog.live.version, consume: queue });
}
