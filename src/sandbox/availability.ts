import type { SandboxConfig } from '../config.js';
import type { HttpProblem } from '../http/problem.js';
import { isStoreUnavailable } from '../store/store-unavailable.js';
import { sandboxDisabled, sandboxUnavailable } from './errors.js';

/**
 * Whether the sandbox can answer at all, one rule for the REST routes and the MCP tools:
 * switched off is 503 `sandbox_disabled`; a store that cannot be reached is 503
 * `sandbox_unavailable` with Retry-After (docs/decisions.md, Error strings).
 */
export function requireEnabled(config: SandboxConfig): void {
  if (!config.enabled) throw sandboxDisabled();
}

/**
 * The sandbox's answer to an unexpected failure, when it has one of its own: an
 * unreachable store is `sandbox_unavailable`; anything else is undefined, i.e. a 500
 * `sandbox_internal_error`. The REST error handler and `whenAvailable` both ask here.
 */
export function unavailabilityProblem(error: unknown): HttpProblem | undefined {
  return isStoreUnavailable(error) ? sandboxUnavailable() : undefined;
}

/** Runs `work` behind the gate, for callers that have no error handler to map the store's failures (the MCP tools). */
export async function whenAvailable<T>(config: SandboxConfig, work: () => Promise<T>): Promise<T> {
  requireEnabled(config);
  try {
    return await work();
  } catch (error) {
    throw unavailabilityProblem(error) ?? error;
  }
}
