import type { FastifyBaseLogger } from 'fastify';
import { throttledWarning } from '../../lib/throttled-warning.js';
import type { Db } from '../../store/database.js';
import { readCatalogVersion } from '../change-log.js';
import { loadSnapshot } from './load-snapshot.js';
import type { CatalogSnapshot } from './snapshot.js';

/**
 * Holds the current catalog snapshot in memory: catalog reads never touch the store.
 * It reloads when the stored catalog version moves, whether the change came from this
 * process (`refresh()` after an import) or another one (the periodic version check).
 */
export class CatalogReadModel {
  #snapshot: CatalogSnapshot | undefined;
  #timer: NodeJS.Timeout | undefined;
  #reloading: Promise<void> | undefined;

  constructor(
    private readonly db: Db,
    private readonly log: FastifyBaseLogger,
  ) {}

  get snapshot(): CatalogSnapshot {
    if (!this.#snapshot) throw new Error('The catalog read model is not loaded yet');
    return this.#snapshot;
  }

  get loaded(): boolean {
    return this.#snapshot !== undefined;
  }

  async load(): Promise<void> {
    const started = performance.now();
    const snapshot = await loadSnapshot(this.db);
    this.#snapshot = snapshot;
    this.log.info(
      { catalogVersion: snapshot.version, products: snapshot.products.length, ms: Math.round(performance.now() - started) },
      'catalog read model loaded',
    );
  }

  /** Reloads if the stored version differs from the loaded one; concurrent calls share one reload. */
  refresh(): Promise<void> {
    this.#reloading ??= (async () => {
      try {
        const version = await readCatalogVersion(this.db);
        if (version !== this.#snapshot?.version) await this.load();
      } finally {
        this.#reloading = undefined;
      }
    })();
    return this.#reloading;
  }

  /** Resolves once the read model serves catalog version `version` or a later one. */
  async catchUpTo(version: number): Promise<void> {
    while ((this.#snapshot?.version ?? 0) < version) await this.refresh();
  }

  startWatching(intervalMs: number): void {
    // While the store is down this fails on every tick; the catalog keeps being served.
    const warn = throttledWarning(this.log, 'catalog version check failed; serving the loaded catalog');
    this.#timer = setInterval(() => {
      this.refresh().catch(warn);
    }, intervalMs);
    this.#timer.unref();
  }

  stopWatching(): void {
    clearInterval(this.#timer);
  }
}
