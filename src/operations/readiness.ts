import type { FastifyBaseLogger } from 'fastify';
import { throttledWarning } from '../lib/throttled-warning.js';
import { withTimeout } from '../lib/with-timeout.js';

/** Below the usual load-balancer health-check timeout, so /readyz itself always answers. */
const PROBE_TIMEOUT_MS = 2000;

export interface ReadinessProbe {
  /** Named in the 503 body when it fails: `store`, `read_model`, `redis`. */
  name: string;
  /** Resolves when the dependency works; rejects (with the reason, which is logged) when not. */
  check(): Promise<void>;
}

export interface ReadinessReport {
  ready: boolean;
  /** The probes that failed, in probe order; empty when ready. */
  failed: string[];
  checks: Record<string, 'ok' | 'failed'>;
}

/**
 * Runs every probe at once, each bounded in time. The response names what failed but
 * never why (docs/decisions.md, Errors: no internals in bodies); the reason goes to the log.
 */
export function readinessChecker(probes: ReadinessProbe[], log: FastifyBaseLogger): () => Promise<ReadinessReport> {
  const warnings = new Map(probes.map((probe) => [probe.name, throttledWarning(log, `readiness probe ${probe.name} failed`)]));
  return async () => {
    const outcomes = await Promise.all(
      probes.map(async (probe) => {
        try {
          await withTimeout(probe.check(), PROBE_TIMEOUT_MS, probe.name);
          return true;
        } catch (error) {
          warnings.get(probe.name)!(error);
          return false;
        }
      }),
    );
    const failed = probes.filter((_, i) => !outcomes[i]).map((probe) => probe.name);
    const checks = Object.fromEntries(probes.map((probe, i) => [probe.name, outcomes[i] ? 'ok' : 'failed'] as const));
    return { ready: failed.length === 0, failed, checks };
  };
}
