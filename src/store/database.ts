import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase, type SqliteStatement } from 'kysely';
import SQLite from 'libsql';
import { LRUCache } from 'lru-cache';
import pg from 'pg';
import type { Config } from '../config.js';
import { querySpans, type DatabaseSystem } from './query-spans.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

/**
 * PostgreSQL when DATABASE_URL is set, else the embedded SQLite file (or memory). With
 * tracing on, every query of a traced operation is a span (query-spans.ts); off, Kysely
 * is given no log and runs its queries as they are.
 */
export function openStore(config: Pick<Config, 'databaseUrl' | 'databasePoolSize' | 'sqlitePath'> & Partial<Pick<Config, 'tracing'>>): Store {
  const log = (system: DatabaseSystem) => (config.tracing?.endpoint ? querySpans(system) : undefined);
  if (config.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: config.databaseUrl,
      max: config.databasePoolSize,
      // A request waits at most this long for a connection before it fails (503 on the sandbox).
      connectionTimeoutMillis: 5000,
      idleTimeoutMillis: 30_000,
      // The server cancels a runaway statement; the client gives up a little later on a
      // connection that went silent (a dead peer answers nothing, not even the cancel).
      statement_timeout: 10_000,
      query_timeout: 15_000,
      keepAlive: true,
      application_name: 'vetrina',
    });
    // A client losing its connection emits 'error', which would crash the process
    // unhandled: the pool handles idle clients ('error' on the pool) and drops them;
    // a client in use also fails its query, which is what the caller sees (a 503 on the
    // sandbox), and the pool drops it when it is released.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: log('postgresql') });
    return { db, dialect: 'postgres', close: () => db.destroy() };
  }
  if (config.sqlitePath !== ':memory:') fs.mkdirSync(path.dirname(config.sqlitePath), { recursive: true });
  // libsql, a better-sqlite3-compatible Node-API binding with prebuilt binaries: it runs on
  // every Node.js release we support without a compiler (docs/decisions.md says why).
  const sqlite = new SQLite(config.sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  // In WAL mode NORMAL skips the fsync on each commit: a crash of the process loses
  // nothing and the file stays consistent; a power cut may lose the last commits. That
  // suits carts that live a day and catalogs that are re-imported. FULL made sandbox
  // flows 1.5 times slower on a quiet disk and up to 4 times on a busy one.
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: reusingStatements(sqlite) }), log: log('sqlite') });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}

/**
 * Why the configured PostgreSQL cannot be used, in words naming DATABASE_URL and the fix,
 * or undefined when it answers (and always for the embedded file). Checked before the
 * store is opened, so an unreachable database is said as such, not as a bare
 * `connect ECONNREFUSED` after a retrying start.
 */
export async function storeProblem(config: Pick<Config, 'databaseUrl'>): Promise<string | undefined> {
  if (!config.databaseUrl) return undefined;
  const client = new pg.Client({ connectionString: config.databaseUrl, connectionTimeoutMillis: 5000 });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    return undefined;
  } catch (error) {
    const url = new URL(config.databaseUrl);
    // The password stays out of the message: start-up errors end up in logs.
    if (url.password) url.password = '***';
    const reason = (error as Error).message || String((error as NodeJS.ErrnoException).code ?? error);
    return `DATABASE_URL=${url.href}: cannot use this PostgreSQL (${reason}); start PostgreSQL there, correct DATABASE_URL, or unset it to keep the catalog in the embedded SQLite file under DATA_DIR`;
  } finally {
    await client.end().catch(() => {});
  }
}

/**
 * SQL texts whose prepared statements are kept. The service runs a few dozen distinct
 * texts; an import's multi-row inserts add one per batch size, which the bound keeps.
 */
export const PREPARED_STATEMENTS = 256;

/**
 * Kysely's SQLite driver prepares every query anew; compiling the SQL was an eighth of
 * the service's CPU in a sandbox flow. Statements are kept per SQL text, which never
 * changes what a statement does, and reusing one resets it: SQLite re-prepares a kept
 * statement itself when a migration changes the schema. Kysely runs one statement at a
 * time on its single connection and reads every result to the end, so no kept statement
 * is still stepping (and holding a read transaction open) when it is used again.
 */
function reusingStatements(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new LRUCache<string, SqliteStatement>({ max: PREPARED_STATEMENTS });
  return {
    prepare(sql) {
      let statement = statements.get(sql);
      if (!statement) {
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
    close() {
      statements.clear();
      sqlite.close();
    },
  };
}
