import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
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
  const sqlite = new SQLite(config.sqlitePath);
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  return { db, dialect: 'sqlite', close: () => db.destroy() };
}
