import type { Kysely } from 'kysely';
import { advanceChangeLogReader, lockChangeLogReader, registerChangeLogReader } from '../store/change-log-readers.js';
import { chunks } from '../store/chunks.js';
import type { Database } from '../store/schema.js';
import type { EventSource } from './events.js';
import { deliveryRow } from './subscriptions.js';

/** Source entries consumed per transaction. */
const ENTRIES_PER_DISPATCH = 100;
/** Delivery rows per insert: 10 columns each, well under both stores' parameter limits. */
const DELIVERIES_PER_INSERT = 200;

/** Makes `source`'s reader start at its newest entry, unless it has a position already. */
export async function startReading(db: Kysely<Database>, source: EventSource): Promise<void> {
  await registerChangeLogReader(db, source.name, await source.latest(db));
}

/**
 * Turns the next source entries into deliveries, one per event and active catalog
 * subscription that asked for its type, and moves the reader past them, all in one transaction: a
 * crash before the commit leaves the entries to the next dispatch (on any instance), one
 * after it leaves the deliveries in the store. The reader's row is locked first, so
 * instances dispatching at once take turns; were an entry consumed twice anyway, its
 * events' ids are the same and the (subscription, event) key keeps one delivery.
 * Returns the entries consumed.
 */
export async function dispatch(db: Kysely<Database>, source: EventSource, now: Date): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const position = await lockChangeLogReader(trx, source.name);
    if (position === undefined) return 0;
    const entries = await source.after(trx, position, ENTRIES_PER_DISPATCH);
    if (entries.length === 0) return 0;
    const subscriptions = await trx.selectFrom('webhook_subscriptions').select(['id', 'event_types']).where('kind', '=', 'catalog').where('status', '=', 'active').execute();
    const wanted = subscriptions.map((row) => ({ id: row.id, types: new Set(JSON.parse(row.event_types) as string[]) }));
    const at = now.toISOString();
    const rows = entries.flatMap((entry) =>
      entry.events.flatMap((event) => wanted.filter((subscription) => subscription.types.has(event.type)).map((subscription) => deliveryRow(subscription.id, event, at))),
    );
    for (const batch of chunks(rows, DELIVERIES_PER_INSERT)) {
      await trx
        .insertInto('webhook_deliveries')
        .values(batch)
        .onConflict((conflict) => conflict.columns(['subscription_id', 'event_id']).doNothing())
        .execute();
    }
    await advanceChangeLogReader(trx, source.name, entries.at(-1)!.seq);
    return entries.length;
  });
}
