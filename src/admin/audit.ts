import type { Kysely } from 'kysely';
import type { Database } from '../store/schema.js';
import { AdminProblem } from './errors.js';

export interface AuditQuery {
  limit: number;
  cursor?: string;
  actor?: string;
  target_type?: string;
  target_id?: string;
}

/** An entry's position in the trail: its change, then its order within the change. */
interface Position {
  seq: number;
  position: number;
}

/** The cursor is where the page ended; it is opaque to clients, and an edited one can only skip entries they may read anyway. */
const encodeCursor = ({ seq, position }: Position) => Buffer.from(`${seq}.${position}`).toString('base64url');

function decodeCursor(cursor: string): Position {
  const match = /^(\d{1,15})\.(\d{1,9})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match) throw new AdminProblem('INVALID_REQUEST', 'Invalid request: cursor is not a cursor this API issued.', 'Pass next_cursor back unchanged.');
  return { seq: Number(match[1]), position: Number(match[2]) };
}

/**
 * Entries newest first, with the cursor of the next page (null on the last). The catalog's
 * writer records them (src/catalog/store/catalog-writer.ts), each with the change it belongs to.
 */
export async function listAudit(db: Kysely<Database>, query: AuditQuery) {
  let select = db.selectFrom('admin_audit').selectAll().orderBy('seq', 'desc').orderBy('position', 'desc').limit(query.limit + 1);
  if (query.actor !== undefined) select = select.where('actor', '=', query.actor);
  if (query.target_type !== undefined) select = select.where('target_type', '=', query.target_type);
  if (query.target_id !== undefined) select = select.where('target_id', '=', query.target_id);
  if (query.cursor !== undefined) {
    const after = decodeCursor(query.cursor);
    select = select.where((eb) => eb.or([eb('seq', '<', after.seq), eb.and([eb('seq', '=', after.seq), eb('position', '<', after.position)])]));
  }
  const rows = await select.execute();
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    entries: page.map((row) => ({
      id: `${row.seq}.${row.position}`,
      at: row.at,
      actor: row.actor,
      action: row.action,
      target_type: row.target_type,
      target_id: row.target_id,
      version_before: row.version_before === null ? null : Number(row.version_before),
      version_after: row.version_after === null ? null : Number(row.version_after),
      changes: JSON.parse(row.changes) as unknown,
    })),
    next_cursor: rows.length > query.limit && last ? encodeCursor({ seq: Number(last.seq), position: Number(last.position) }) : null,
  };
}
