import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * How long a test that works a process of its own for minutes (thousands of requests,
 * forced garbage collection) may run before it counts as hung: only a hang guard, with
 * room for a machine whose cores other work keeps busy (on 2 cores at a load average of
 * 20 to 30, 240 s ran out for a test that had taken 137 s in the run before).
 */
export const SLOW_TEST_TIMEOUT_MS = 20 * 60_000;

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * Runs a measuring script of test/support in a process of its own with --expose-gc (so
 * it can force collections between its readings, apart from the test runner's heap) and
 * answers the JSON line it prints last.
 */
export async function runGcScript<T>(script: string, args: string[]): Promise<T> {
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', '--import', 'tsx', script, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn' },
    maxBuffer: 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').at(-1)!) as T;
}
