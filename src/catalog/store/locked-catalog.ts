import type { Transaction } from 'kysely';
import type { Database } from '../../store/schema.js';

declare const lockHeld: unique symbol;

/**
 * A transaction that holds the catalog's write lock. Only `CatalogWriter.write`
 * (catalog-writer.ts) makes one, and every function that writes catalog rows takes one,
 * so no catalog write can happen outside the protocol: without the lock, without its
 * change record, or without its audit entries. A cast to it anywhere else is a lint error
 * (eslint.config.js).
 */
export type LockedCatalog = Transaction<Database> & { readonly [lockHeld]: true };
