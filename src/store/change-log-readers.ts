import type { Kysely } from 'kysely';
import type { Database } from './schema.js';

/**
 * Durable readers of the catalog change log (`catalog_changes`): features that turn
 * changes into something of their own (webhook deliveries) and must see every change,
 * even one made while no instance ran. Each records the last change it consumed here, in
 * the transaction that consumes it; the catalog prunes no change a reader has not
 * consumed (src/catalog/store/catalog-writer.ts). The catalog knows readers only through
 * this module, never the features behind them.
 */

/** Registers `name` at `seq` unless it is registered already; a new reader starts after the changes made before it. */
export async function registerChangeLogReader(db: Kysely<Database>, name: string, seq: number): Promise<void> {
  await db
    .insertInto('change_log_readers')
    .values({ name, seq })
    .onConflict((conflict) => conflict.column('name').doNothing())
    .execute();
}

/**
 * The reader's position, locked until the transaction `db` commits (on PostgreSQL; on
 * SQLite a write transaction is alone anyway), so readers on several instances take
 * turns and consume each change once. Undefined for a reader never registered.
 */
export async function lockChangeLogReader(db: Kysely<Database>, name: string): Promise<number | undefined> {
  const row = await db
    .updateTable('change_log_readers')
    .set((eb) => ({ seq: eb.ref('seq') }))
    .where('name', '=', name)
    .returning('seq')
    .executeTakeFirst();
  return row === undefined ? undefined : Number(row.seq);
}

export async function readChangeLogReader(db: Kysely<Database>, name: string): Promise<number | undefined> {
  const row = await db.selectFrom('change_log_readers').select('seq').where('name', '=', name).executeTakeFirst();
  return row === undefined ? undefined : Number(row.seq);
}

export async function advanceChangeLogReader(db: Kysely<Database>, name: string, seq: number): Promise<void> {
  await db.updateTable('change_log_readers').set({ seq }).where('name', '=', name).execute();
}

/** The last change every reader consumed: pruning keeps every change after it. Undefined when there are no readers. */
export async function changeLogFloor(db: Kysely<Database>): Promise<number | undefined> {
  const row = await db
    .selectFrom('change_log_readers')
    .select((eb) => eb.fn.min('seq').as('seq'))
    .executeTakeFirst();
  return row?.seq === null || row?.seq === undefined ? undefined : Number(row.seq);
}

/** Forgets `name`, so its position no longer keeps changes from being pruned; a reader registered again starts at the newest change. */
export async function retireChangeLogReader(db: Kysely<Database>, name: string): Promise<void> {
  await db.deleteFrom('change_log_readers').where('name', '=', name).execute();
}
