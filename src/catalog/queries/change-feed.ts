import type { Db } from '../../store/database.js';
import { changeDetailsAfter, readChangeTime, type ProductChangeDetail, type ProductChangeKind } from '../store/change-log.js';
import { CatalogReadError } from '../read-model/read-errors.js';
import { DEFAULT_LIMIT, type CatalogService } from './catalog-service.js';
import { marketContext, resolveMarket, type Market, type MarketContext, type MarketInput } from './market.js';
import type { PublicProduct } from './render.js';

/** The kinds of change the public feed names; `created` and `deleted` show as `published` and `withdrawn`. */
export type FeedChangeKind = Extract<ProductChangeKind, 'content' | 'price' | 'availability' | 'published' | 'withdrawn'>;
export const FEED_CHANGE_KINDS: readonly FeedChangeKind[] = ['content', 'price', 'availability', 'published', 'withdrawn'];

export interface ChangeFeedInput extends MarketInput {
  since?: string | undefined;
  limit?: number | undefined;
}

/** One product change as the feed and the stream serve it. */
export interface ChangeFeedEntry {
  /** The feed position right after this entry: `since` (or the stream's Last-Event-ID) to resume after it. */
  cursor: string;
  catalog_version: number;
  changed_at: string;
  product_id: string;
  handle: string;
  kinds: FeedChangeKind[];
  /** The product as the list renders it in the market now; null when it is no longer served. */
  product: PublicProduct | null;
}

export interface ChangeFeedPage {
  changes: ChangeFeedEntry[];
  next_cursor: string;
  has_more: boolean;
  /** The catalog version this instance serves: the feed answers no change after it. */
  catalog_version: number;
  context: MarketContext;
}

/** A feed request checked and resolved: what its page depends on. */
export interface ChangeFeedRequest {
  market: Market;
  /** Where the page starts; undefined for the current position. */
  since: FeedPosition | undefined;
  limit: number;
  /** The catalog version served when the request was resolved: the page holds no change after it. */
  version: number;
}

/**
 * A place in the feed: after change `seq` and after the first `skip` product details of
 * change `seq + 1` (a page can end inside a large change, such as an import batch).
 */
export interface FeedPosition {
  seq: number;
  skip: number;
}

/** Logged changes read per page at most: a run of changes that show nothing publicly (drafts, regions) is skipped this many at a time. */
const CHANGES_PER_READ = 100;
/** Longest cursor accepted: two integers. */
export const MAX_FEED_CURSOR_LENGTH = 32;
const CURSOR_PATTERN = /^(\d{1,15})(?:\.(\d{1,9}))?$/;

/**
 * The public change feed: the catalog changes after a cursor, in order, each rendered in
 * the requested market from the catalog as served. The changes and what each did come
 * from the change log (written by the write protocol, read here from the store by any
 * instance); the feed answers only changes this instance already serves, so the product
 * it shows is at least as new as the change.
 *
 * Cursors are the position itself, written as `seq` or `seq.skip` (docs/decisions.md,
 * Change feed): they reveal only where in the public log a client is, so there is
 * nothing to protect with a MAC; one edited by hand reads from another position.
 */
export class ChangeFeed {
  constructor(
    private readonly db: Db,
    private readonly catalog: CatalogService,
  ) {}

  /** The last version asked of {@link versionTime} and its time: every request for a catalog answer at one version asks the same. */
  #versionTime: { version: number; time: Promise<string | undefined> } | undefined;

  /**
   * When the catalog version `version` was made (ISO 8601), for answers that carry the
   * time of the catalog they show (Last-Modified); undefined when the log no longer
   * holds it, or for version 0.
   */
  versionTime(version: number): Promise<string | undefined> {
    if (this.#versionTime?.version === version) return this.#versionTime.time;
    const time = readChangeTime(this.db, version);
    this.#versionTime = { version, time };
    // A failed read (the store unreachable) is not kept: the next request reads again.
    time.catch(() => {
      if (this.#versionTime?.time === time) this.#versionTime = undefined;
    });
    return time;
  }

  async changes(input: ChangeFeedInput): Promise<ChangeFeedPage> {
    return this.page(this.resolve(input));
  }

  /** Checks a feed request against the catalog as served now (CatalogAnswers keys prepared pages on it). */
  resolve(input: ChangeFeedInput): ChangeFeedRequest {
    const live = this.catalog.live;
    return {
      market: resolveMarket(live, input),
      since: input.since === undefined ? undefined : parseFeedCursor(input.since),
      limit: input.limit ?? DEFAULT_LIMIT,
      version: live.version,
    };
  }

  /** The page a resolved request asks for; a position the log no longer holds is refused as `changes_expired`. */
  async page({ market, since, limit, version }: ChangeFeedRequest): Promise<ChangeFeedPage> {
    const page = (changes: ChangeFeedEntry[], next: FeedPosition, hasMore: boolean): ChangeFeedPage => ({
      changes,
      next_cursor: feedCursor(next),
      has_more: hasMore,
      catalog_version: version,
      context: marketContext(market),
    });
    if (since === undefined) return page([], { seq: version, skip: 0 }, false);
    const logged = await changeDetailsAfter(this.db, since.seq, CHANGES_PER_READ, Math.max(version, since.seq));
    if (logged === undefined) throw expired(since);
    const entries: ChangeFeedEntry[] = [];
    let position = since;
    for (const change of logged) {
      for (let index = change.seq === since.seq + 1 ? since.skip : 0; index < change.details.length; index++) {
        if (entries.length === limit) return page(entries, position, true);
        position = { seq: change.seq - 1, skip: index + 1 };
        const entry = this.#entry(change.details[index]!, change.seq, change.changedAt, market, position);
        if (entry) entries.push(entry);
      }
      position = { seq: change.seq, skip: 0 };
    }
    // The read stops at CHANGES_PER_READ changes or at a budget of their details' bytes: what it left is more.
    return page(entries, position, position.seq < version);
  }

  /** The change as the public sees it: nothing for a product that was not served before or after it (a draft's changes are not public). */
  #entry(detail: ProductChangeDetail, seq: number, changedAt: string, market: Market, position: FeedPosition): ChangeFeedEntry | undefined {
    const kinds = publicKinds(detail);
    if (kinds.length === 0 || (!detail.served && !kinds.includes('withdrawn'))) return undefined;
    const product = this.catalog.live.productById.get(detail.product_id);
    return {
      cursor: feedCursor(position),
      catalog_version: seq,
      changed_at: changedAt,
      product_id: detail.product_id,
      handle: detail.handle,
      kinds,
      product: product ? this.catalog.render(product, market) : null,
    };
  }
}

function publicKinds(detail: ProductChangeDetail): FeedChangeKind[] {
  return FEED_CHANGE_KINDS.filter((kind) => detail.kinds.includes(kind));
}

export function feedCursor({ seq, skip }: FeedPosition): string {
  return skip === 0 ? String(seq) : `${seq}.${skip}`;
}

/** A cursor this feed writes; anything else is an invalid cursor. */
export function parseFeedCursor(cursor: string): FeedPosition {
  const match = CURSOR_PATTERN.exec(cursor);
  if (!match) throw new CatalogReadError('The cursor is not one this feed issued.', { kind: 'invalid_feed_cursor' });
  return { seq: Number(match[1]), skip: Number(match[2] ?? 0) };
}

function expired(since: FeedPosition): CatalogReadError {
  return new CatalogReadError(`The change log no longer holds the changes after cursor ${feedCursor(since)}.`, { kind: 'changes_expired' });
}
