import type { Kysely, Selectable } from 'kysely';
import type { Db } from '../store/database.js';
import type { Database } from '../store/schema.js';

/** The sandbox tables whose rows belong to a key and expire with it. */
type OwnedTable = 'sandbox_carts' | 'sandbox_checkouts' | 'sandbox_orders' | 'sandbox_payment_tokens';

/** Their columns as the lookup sees them: text it compares. */
type OwnedRows = Record<OwnedTable, Record<string, string>>;

/**
 * docs/decisions.md, Ownership: the row whose `column` is `value`, as `read` makes it,
 * if it belongs to the key and has not expired. Another key's row is not found, exactly
 * like a missing one, so ids cannot be probed; an expired one is gone before the purge
 * deletes it.
 */
export async function findOwnedRow<T extends OwnedTable, R>(
  db: Db,
  where: { table: T; column: keyof Database[T] & string; value: string },
  owner: { keyId: string; now: Date },
  read: (row: Selectable<Database[T]>) => R,
): Promise<R | undefined> {
  const { table, column, value } = where;
  // Typed loosely so one query serves the tables; the caller gets its table's row type back.
  const row = await (db as unknown as Kysely<OwnedRows>)
    .selectFrom(table as OwnedTable)
    .selectAll()
    .where(column as string, '=', value)
    .where('key_id', '=', owner.keyId)
    .where('expires_at', '>', owner.now.toISOString())
    .executeTakeFirst();
  return row && read(row as Selectable<Database[T]>);
}
