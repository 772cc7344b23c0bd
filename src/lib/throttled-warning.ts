import type { FastifyBaseLogger } from 'fastify';

const DEFAULT_INTERVAL_MS = 30_000;

/**
 * A warning logged at most once per interval: during an outage the same failure would
 * otherwise be logged once per request. Each line says how many were held back before it.
 */
export function throttledWarning(
  log: FastifyBaseLogger,
  message: string,
  intervalMs = DEFAULT_INTERVAL_MS,
): (error: unknown) => void {
  let lastLoggedAt = -Infinity;
  let suppressed = 0;
  return (error) => {
    const now = performance.now();
    if (now - lastLoggedAt < intervalMs) {
      suppressed += 1;
      return;
    }
    log.warn({ err: error, suppressed }, message);
    lastLoggedAt = now;
    suppressed = 0;
  };
}
