import { setTimeout as sleep } from 'node:timers/promises';

const POLL_INTERVAL_MS = 25;

/**
 * Calls `probe` until it returns something `done` accepts or `limitMs` passes, and returns
 * the last result with the time it took; the caller asserts on the result.
 */
export async function pollUntil<T>(probe: () => Promise<T>, done: (value: T) => boolean, limitMs: number): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  for (;;) {
    const value = await probe();
    const ms = performance.now() - started;
    if (done(value) || ms > limitMs) return { value, ms };
    await sleep(POLL_INTERVAL_MS);
  }
}
