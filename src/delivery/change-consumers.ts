import type { Kysely } from 'kysely';
import { changeDetailsAfter } from '../catalog/store/change-log.js';
import { advanceChangeLogReader, lockChangeLogReader, readChangeLogReader, registerChangeLogReader } from '../store/change-log-readers.js';
import type { Database } from '../store/schema.js';

/** Logged changes consumed per transaction. */
const CHANGES_PER_CONSUME = 100;

/** What a run of catalog changes changed: the products whose served documents they changed, each once, in the order they first changed. */
export interface ChangedProducts {
  /** The first and last change of the run (catalog versions). */
  first: number;
  last: number;
  productIds: string[];
}

/**
 * A feature that turns catalog changes into deliveries of a kind of its own (an ACP feed
 * push), reading the change log as a durable reader of its own (src/store/change-log-readers.ts):
 * every change is consumed once, by one instance, even one made while no instance ran.
 */
export interface ChangeConsumer {
  /** Its reader's name. */
  readonly name: string;
  /** The newest change it may consume now: the version this instance's catalog serves, when what it writes is made from it. */
  upTo(): number;
  /** Writes what the changes make, in `trx`, the transaction that moves its reader past them (WebhookService.queue). */
  consume(trx: Kysely<Database>, changes: ChangedProducts): Promise<void>;
}

/**
 * Consumes the next changes up to `consumer.upTo()` and moves its reader past them, in one
 * transaction: a crash before the commit leaves them to the next round (on any instance).
 * The reader's row is locked first, so instances take turns. Returns the changes consumed.
 */
export async function consumeChanges(db: Kysely<Database>, consumer: ChangeConsumer): Promise<number> {
  const upTo = consumer.upTo();
  // Read without a lock first: most rounds find nothing new, and need no write transaction.
  const seen = await readChangeLogReader(db, consumer.name);
  if (seen === undefined) {
    // Retired by an instance started without this consumer (a setting not yet rolled out to
    // every instance, or switched off on one): follow again from the newest change.
    await registerChangeLogReader(db, consumer.name, upTo);
    return 0;
  }
  if (seen >= upTo) return 0;
  return db.transaction().execute(async (trx) => {
    const position = await lockChangeLogReader(trx, consumer.name);
    if (position === undefined || position >= upTo) return 0;
    const changes = await changeDetailsAfter(trx, position, CHANGES_PER_CONSUME, upTo);
    // The log holds every change after a registered reader's position (changeLogFloor);
    // none left means they were pruned before the reader was registered again: start at upTo.
    if (changes === undefined || changes.length === 0) {
      await advanceChangeLogReader(trx, consumer.name, upTo);
      return 0;
    }
    const productIds = [...new Set(changes.flatMap((change) => change.details.map((detail) => detail.product_id)))];
    const last = changes.at(-1)!.seq;
    if (productIds.length > 0) await consumer.consume(trx, { first: changes[0]!.seq, last, productIds });
    await advanceChangeLogReader(trx, consumer.name, last);
    return changes.length;
  });
}
