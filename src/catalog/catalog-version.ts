import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';

/**
 * The catalog version grows by one with every committed catalog change. Instances
 * compare it with the version their read model was built from to notice changes
 * made by another process (an import, another instance).
 */
export async function bumpCatalogVersion(db: Kysely<Database>, now: string): Promise<number> {
  const row = await db
    .insertInto('catalog_state')
    .values({ id: 1, version: 1, changed_at: now })
    .onConflict((conflict) =>
      conflict.column('id').doUpdateSet((eb) => ({ version: eb('catalog_state.version', '+', 1), changed_at: now })),
    )
    .returning('version')
    .executeTakeFirstOrThrow();
  return Number(row.version);
}

export async function readCatalogVersion(db: Kysely<Database>): Promise<number> {
  const row = await db.selectFrom('catalog_state').select('version').where('id', '=', 1).executeTakeFirst();
  return row ? Number(row.version) : 0;
}
