/**
 * How long a test that works a process of its own for minutes (thousands of requests,
 * forced garbage collection) may run before it counts as hung: only a hang guard, with
 * room for a machine whose cores other work keeps busy (on 2 cores at a load average of
 * 20 to 30, 240 s ran out for a test that had taken 137 s in the run before).
 */
export const SLOW_TEST_TIMEOUT_MS = 20 * 60_000;
