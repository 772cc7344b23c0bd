/** How far an import has come: sent while a phase runs (every `progressIntervalMs`) and when it ends. */
export interface ImportProgress {
  /** Checking the whole file (nothing written yet), then writing it batch by batch. */
  phase: 'validating' | 'writing';
  /** Products validated, or written, so far. */
  products: number;
  /** Products in the file: known while writing (counted while validating). */
  totalProducts?: number;
  /** Bytes of the file read so far, and its size: known while validating a file. */
  bytesRead?: number;
  totalBytes?: number;
  elapsedMs: number;
  /** Products per second since the phase began. */
  perSecond: number;
  /** Seconds until the phase ends at the rate so far, when it can be told. */
  etaSeconds?: number;
  /** The phase has ended: this is its last report. */
  done: boolean;
}

export interface ProgressOptions {
  onProgress?: (progress: ImportProgress) => void;
  /** How often a running phase is reported, in milliseconds. Default 2000. */
  progressIntervalMs?: number;
}

export const DEFAULT_PROGRESS_INTERVAL_MS = 2000;

/** Measures one phase and reports it to `onProgress` at most once per interval, and at its end. */
export class ProgressMeter {
  private readonly startedAt = performance.now();
  private reportedAt = this.startedAt;
  private readonly intervalMs: number;

  constructor(
    private readonly phase: ImportProgress['phase'],
    private readonly options: ProgressOptions,
    private readonly totalProducts?: number,
    private readonly totalBytes?: number,
  ) {
    this.intervalMs = options.progressIntervalMs ?? DEFAULT_PROGRESS_INTERVAL_MS;
  }

  update(products: number, bytesRead?: number): void {
    if (!this.options.onProgress) return;
    const now = performance.now();
    if (now - this.reportedAt < this.intervalMs) return;
    this.reportedAt = now;
    this.options.onProgress(this.progress(products, bytesRead, now, false));
  }

  finish(products: number, bytesRead?: number): void {
    this.options.onProgress?.(this.progress(products, bytesRead, performance.now(), true));
  }

  private progress(products: number, bytesRead: number | undefined, now: number, done: boolean): ImportProgress {
    const elapsedMs = Math.round(now - this.startedAt);
    const perSecond = elapsedMs > 0 ? Math.round((products * 1000) / elapsedMs) : 0;
    // The part still to do, from products where their total is known, else from bytes.
    let remaining: number | undefined;
    if (this.totalProducts !== undefined && products > 0) remaining = (this.totalProducts - products) / products;
    else if (this.totalBytes !== undefined && bytesRead) remaining = (this.totalBytes - bytesRead) / bytesRead;
    return {
      phase: this.phase,
      products,
      ...(this.totalProducts !== undefined && { totalProducts: this.totalProducts }),
      ...(bytesRead !== undefined && { bytesRead, totalBytes: this.totalBytes }),
      elapsedMs,
      perSecond,
      ...(remaining !== undefined && { etaSeconds: done ? 0 : Math.round((remaining * elapsedMs) / 1000) }),
      done,
    };
  }
}
