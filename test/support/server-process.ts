import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** tsx compiles on the fly and a first start migrates and seeds: generous, and only a hang guard. */
const START_TIMEOUT_MS = 60_000;

export type LogEntry = Record<string, any>;
type LogMatch = (entry: LogEntry) => boolean;

export interface ServerProcess {
  /** `http://127.0.0.1:PORT` of the running server. */
  url: string;
  child: ChildProcess;
  /** Resolves with the exit code once the process has exited and its output is read. */
  exited: Promise<number | null>;
  /** Resolves with the first log entry (pino JSON) that matches, however long that takes. */
  waitForLog(match: LogMatch): Promise<LogEntry>;
  /** Sends `signal` (SIGTERM by default) and waits for the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Everything the process printed so far, for failure messages. */
  output(): string;
}

/**
 * Runs `src/server.ts` as its own process, as production does, on a free port. `env`
 * adds to the test's environment: pass `DATABASE_URL: ''` to keep a child on SQLite.
 * Resolves once the server is ready (its search index built), or with `until: 'listening'`
 * as soon as it accepts connections.
 */
export async function startServerProcess(env: Record<string, string>, { until = 'ready' }: { until?: 'listening' | 'ready' } = {}): Promise<ServerProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server.ts'], {
    cwd: REPO_ROOT,
    env: { ...process.env, HOST: '127.0.0.1', PORT: '0', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const entries: LogEntry[] = [];
  const waiters: { match: LogMatch; resolve(entry: LogEntry): void }[] = [];
  child.stderr!.on('data', (chunk: Buffer) => lines.push(chunk.toString()));
  createInterface({ input: child.stdout! }).on('line', (line) => {
    lines.push(line);
    const entry = parseLogLine(line);
    if (!entry) return;
    entries.push(entry);
    for (const waiter of waiters.filter((w) => w.match(entry))) waiter.resolve(entry);
  });
  const exited = once(child, 'close').then(([code]) => code as number | null);
  const output = () => lines.join('\n');
  const waitForLog = (match: LogMatch) =>
    new Promise<LogEntry>((resolve) => {
      const seen = entries.find(match);
      if (seen) resolve(seen);
      else waiters.push({ match, resolve });
    });

  let timer: NodeJS.Timeout | undefined;
  const ready = await Promise.race([
    waitForLog((entry) => (until === 'ready' ? entry.msg === 'Vetrina is ready' : String(entry.msg).startsWith('Vetrina is listening'))),
    exited.then((code) => Promise.reject(new Error(`server exited with ${code} before it was ready:\n${output()}`))),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`server not ready within ${START_TIMEOUT_MS} ms:\n${output()}`)), START_TIMEOUT_MS);
    }),
  ])
    .catch((error: unknown) => {
      child.kill('SIGKILL');
      throw error;
    })
    .finally(() => clearTimeout(timer));

  return {
    url: String(ready.address),
    child,
    exited,
    waitForLog,
    output,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      return exited;
    },
  };
}

/** Runs one of the project's commands (`src/cli/*.ts`, `tools/*.ts`) to completion; returns its exit code and output. */
export async function runCli(script: string, args: string[], env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => chunks.push(chunk));
  const [code] = (await once(child, 'close')) as [number | null];
  return { code, output: Buffer.concat(chunks).toString() };
}

function parseLogLine(line: string): LogEntry | undefined {
  try {
    return JSON.parse(line) as LogEntry;
  } catch {
    return undefined;
  }
}
