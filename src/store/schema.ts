import type { Generated } from 'kysely';

/**
 * The tables as Kysely sees them. Timestamps are ISO-8601 UTC strings and flags are
 * 0/1 integers, so the same queries run unchanged on SQLite and PostgreSQL.
 */
export interface Database {
  regions: RegionTable;
  region_countries: RegionCountryTable;
  categories: CategoryTable;
  collections: CollectionTable;
  product_categories: ProductCategoryTable;
  products: ProductTable;
  product_translations: ProductTranslationTable;
  product_options: ProductOptionTable;
  variants: VariantTable;
  variant_option_values: VariantOptionValueTable;
  prices: PriceTable;
  catalog_state: CatalogStateTable;
  catalog_changes: CatalogChangeTable;
  admin_audit: AdminAuditTable;
  sandbox_keys: SandboxKeyTable;
  sandbox_carts: SandboxCartTable;
  sandbox_idempotency: SandboxIdempotencyTable;
  sandbox_checkouts: SandboxCheckoutTable;
  sandbox_orders: SandboxOrderTable;
  sandbox_payment_tokens: SandboxPaymentTokenTable;
  sandbox_order_webhooks: SandboxOrderWebhookTable;
  deployment_secrets: DeploymentSecretTable;
  change_log_readers: ChangeLogReaderTable;
  webhook_subscriptions: WebhookSubscriptionTable;
  webhook_deliveries: WebhookDeliveryTable;
  import_jobs: ImportJobTable;
}

/** A durable reader of the catalog change log: the last change it consumed (src/store/change-log-readers.ts). */
export interface ChangeLogReaderTable {
  name: string;
  seq: number;
}

export interface WebhookSubscriptionTable {
  id: string;
  /**
   * `catalog`: subscribed through the admin API to catalog events; `ucp_order`: a UCP
   * platform's order webhook, one per URL, made by its first order; `acp_feed`: an ACP
   * agent's Feed API, made by the first catalog change pushed there; `acp_order`: the order
   * webhook a sandbox key registered for ACP's order events, one per key (src/delivery/kinds.ts).
   */
  kind: 'catalog' | 'ucp_order' | 'acp_feed' | 'acp_order';
  url: string;
  /** JSON array of the catalog event types it takes; empty for kinds whose events are written for them. */
  event_types: string;
  description: string | null;
  /**
   * The signing secret, kept to sign and never shown again after creation: a `catalog`
   * subscription's Standard Webhooks secret, `whsec_<base64>`; an `acp_order` one's HMAC
   * key; empty for other kinds, which sign otherwise.
   */
  secret: string;
  status: 'active' | 'paused';
  paused_reason: string | null;
  paused_at: string | null;
  created_by: string;
  created_at: string;
}

export interface WebhookDeliveryTable {
  id: string;
  subscription_id: string;
  event_id: string;
  event_type: string;
  /** The event's JSON, sent as the body of every attempt. */
  payload: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  created_at: string;
  /** When it is due next; null once delivered or given up. */
  next_attempt_at: string | null;
  /** The instance sending it holds it until then. */
  lease_until: string | null;
  leased_by: string | null;
  last_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  delivered_at: string | null;
}

export interface DeploymentSecretTable {
  name: string;
  /** base64url. */
  secret: string;
  created_at: string;
}

export interface RegionTable {
  id: string;
  name: string;
  currency: string;
  position: number;
}

export interface RegionCountryTable {
  country: string;
  region_id: string;
}

export interface ProductTable {
  id: string;
  handle: string;
  status: 'draft' | 'published';
  weighted: number;
  thumbnail: string | null;
  created_at: string;
  updated_at: string;
  /** Grows with every change to the product's own fields or texts; the admin API's ETag. */
  version: Generated<number>;
  /** JSON: the product's texts, options and variants as read models load them (catalog/store/served-document.ts); null until first written. */
  served: Generated<string | null>;
  /** JSON array of category handles. */
  category_handles: Generated<string>;
  collection_handle: string | null;
  /** JSON array of tags. */
  tags: Generated<string>;
  /** JSON array of `{ url, alt }`. */
  images: Generated<string>;
}

export interface CategoryTable {
  handle: string;
  parent_handle: string | null;
  /** Order among the categories, as the catalog file lists them. */
  position: number;
  /** JSON: title per locale. */
  titles: string;
}

/** A product's category, one row each: what lists products by category read by index (the JSON column is what read models load). */
export interface ProductCategoryTable {
  category_handle: string;
  product_id: string;
}

export interface CollectionTable {
  handle: string;
  position: number;
  /** JSON: title per locale. */
  titles: string;
}

export interface ProductTranslationTable {
  product_id: string;
  locale: string;
  title: string;
  description: string | null;
}

export interface ProductOptionTable {
  id: string;
  product_id: string;
  name: string;
  position: number;
}

export interface VariantTable {
  id: string;
  product_id: string;
  sku: string;
  position: number;
  manage_inventory: number;
  inventory_quantity: number;
  allow_backorder: number;
  /** Grows with every change to the variant's stock or prices; the admin API's ETag. */
  version: Generated<number>;
}

export interface VariantOptionValueTable {
  variant_id: string;
  option_id: string;
  value: string;
}

export interface PriceTable {
  variant_id: string;
  currency: string;
  /** Set for a region-specific price; null for the variant's price in that currency. */
  region_id: string | null;
  amount: number;
}

/** One row whose version grows with every catalog change, so instances notice imports. */
export interface CatalogStateTable {
  id: number;
  version: number;
  changed_at: string;
}

/**
 * One row per committed catalog change: its sequence is the catalog version the change
 * made, and it lists the products it touched, so instances apply only those.
 */
export interface CatalogChangeTable {
  seq: number;
  /** JSON array of product ids. */
  product_ids: string;
  /** 1 when regions changed: markets are re-read and every rendering dropped. */
  regions_changed: number;
  changed_at: string;
  /** JSON array of what the change did to each product (catalog/store/change-log.ts, `ProductChangeDetail`). */
  details: Generated<string>;
}

/** Who changed what through the admin API, and the versions before and after. */
export interface AdminAuditTable {
  /** The catalog change the entry belongs to. */
  seq: number;
  /** Order of the entry within its change. */
  position: number;
  /** The admin token's name. */
  actor: string;
  action: string;
  target_type: string;
  target_id: string;
  version_before: number | null;
  version_after: number | null;
  /** JSON: the fields the request set. */
  changes: string;
  at: string;
}

/** A catalog import over the admin API (src/admin/import-jobs.ts, migration 0013). */
export interface ImportJobTable {
  id: string;
  /** queued, running, cancelling, succeeded, failed, cancelled. */
  status: string;
  /** queued, validating, writing, done. */
  phase: string;
  /** 1 while the job has not ended, else null: one active job per store (a unique index). */
  active: number | null;
  unpublish_missing: number;
  /** The admin token's name. */
  actor: string;
  /** JSON: validated, written, totals, rate, ETA. */
  progress: string;
  /** JSON: what the import wrote; null while nothing was. */
  report: string | null;
  version_before: number;
  version_after: number | null;
  /** JSON: code, message, details; null unless failed. */
  error: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** Refreshed by the running instance: a job whose heartbeat stopped was interrupted. */
  heartbeat_at: string;
}

export interface SandboxKeyTable {
  id: string;
  /** Hex SHA-256 of the token; the token itself is never stored. */
  token_hash: string;
  /** Space-separated, as in an OAuth `scope` value. */
  scopes: string;
  created_at: string;
  expires_at: string;
}

export interface SandboxCartTable {
  id: string;
  key_id: string;
  currency: string;
  /** JSON: the cart's items, address and shipping option; prices are never stored. */
  state: string;
  /** Grows with every change; an update applies only to the revision it read (optimistic concurrency). */
  revision: number;
  created_at: string;
  updated_at: string;
  expires_at: string;
}

export interface SandboxIdempotencyTable {
  key_id: string;
  idempotency_key: string;
  method: string;
  path: string;
  request_hash: string;
  /** Random per claim, so a request only ever completes or releases its own claim. */
  claim_id: string;
  /** null while the first request is still being processed. */
  status_code: number | null;
  response_body: string | null;
  response_headers: string | null;
  created_at: string;
  expires_at: string;
}

export interface SandboxCheckoutTable {
  id: string;
  key_id: string;
  currency: string;
  /** JSON: the session's lines, buyer, shipping address, fulfillment option and market; prices are never stored. */
  state: string;
  /** `open` (incomplete or ready: that follows from the live catalog), `completed` or `canceled`. */
  status: 'open' | 'completed' | 'canceled';
  /** Grows with every change; an update applies only to the revision it read (optimistic concurrency). */
  revision: number;
  /** The cart an open session was made from; null otherwise. Unique: one open session per cart. */
  active_cart_id: string | null;
  created_at: string;
  updated_at: string;
  expires_at: string;
}

/** A delegated payment token (src/sandbox/payment/delegated-payments.ts): its allowance and its test card's outcome, never a card number. */
export interface SandboxPaymentTokenTable {
  id: string;
  key_id: string;
  /** JSON: the PaymentOutcome of the test card it was issued for. */
  outcome: string;
  /** Minor units of `currency`; PostgreSQL answers a bigint as text. */
  max_amount: number | string;
  currency: string;
  /** The session the allowance is for. */
  checkout_id: string;
  merchant_id: string;
  /** When the allowance ends: a completion at or after it is declined. */
  allowance_expires_at: string;
  created_at: string;
  /** The key's expiry, for the purge. */
  expires_at: string;
}

/** The order webhook a sandbox key registered (ACP's order events): its events go to the subscription, which holds the URL and the secret. */
export interface SandboxOrderWebhookTable {
  /** One per key. */
  key_id: string;
  /** The `acp_order` webhook subscription; deleting it deletes this. */
  subscription_id: string;
  created_at: string;
  /** The key's expiry, for the purge. */
  expires_at: string;
}

export interface SandboxOrderTable {
  id: string;
  key_id: string;
  /** Unique: a session completes into one order. */
  checkout_id: string;
  currency: string;
  /** JSON: what was bought at which prices, the buyer, the address, the shipping and the payment, frozen at completion. */
  snapshot: string;
  created_at: string;
  expires_at: string;
}
