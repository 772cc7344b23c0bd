import type { SandboxConfig } from '../config.js';
import { sandboxDisabled } from './errors.js';

/**
 * Whether the sandbox answers at all, one rule for the REST routes and the MCP tools:
 * switched off is 503 `sandbox_disabled`. A store that cannot be reached is the other
 * reason it cannot answer; `sandboxErrors` (errors.ts) turns that failure into 503
 * `sandbox_unavailable` on both surfaces (docs/decisions.md, Error strings).
 */
export function requireEnabled(config: SandboxConfig): void {
  if (!config.enabled) throw sandboxDisabled();
}

/** Runs `work` behind the gate, for callers that have no onRequest hook (the MCP tools). */
export async function whenAvailable<T>(config: SandboxConfig, work: () => Promise<T>): Promise<T> {
  requireEnabled(config);
  return work();
}
