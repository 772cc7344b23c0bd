import fs from 'node:fs';
import path from 'node:path';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import SQLite from 'libsql';
import pg from 'pg';
import type { Config } from '../config.js';
import type { Database } from './schema.js';

export type Db = Kysely<Database>;
export type Dialect = 'sqlite' | 'postgres';

export interface Store {
  db: Db;
  dialect: Dialect;
  close(): Promise<void>;
}

/** PostgreSQL when DATABASE_URL is set, else the embedded SQLite file (or memory). */
export function openStore(config: Pick<Config, 'databaseUrl' | 'databasePoolSize' | 'sqlitePath'>): Store {
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
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
