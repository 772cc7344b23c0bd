import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { closeSync, openSync, writeSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { cpus as machineCpus } from 'node:os';
import path from 'node:path';
import { createHistogram, type RecordableHistogram } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import autocannon from 'autocannon';

/** What the benchmarks share: building the service, running it (or a baseline) as a process of its own, loading it, reading its RSS. */

const REPO_ROOT = path.resolve(import.meta.dirname, '..');
/** A first start migrates and imports the catalog: minutes for a large generated one. Only a hang guard; a caller may give a longer one. */
const START_TIMEOUT_MS = 300_000;
/** Short: the suite reports the time from spawning a process to its first answer, and a poll is only a refused connect. */
const READY_POLL_MS = 20;
/** Enough of a process's last output to explain why it failed. */
const OUTPUT_TAIL_LINES = 40;

/** Runs a command in `cwd` (the repository unless given) to completion, its output shown; rejects on a non-zero exit. */
export async function runCommand(command: string, args: string[], cwd = REPO_ROOT): Promise<void> {
  const child = spawn(command, args, { cwd, stdio: 'inherit' });
  const [code] = (await once(child, 'exit')) as [number | null];
  if (code !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${code}`);
}

/** Compiles the service to dist/, which is what production runs. */
export function buildService(): Promise<void> {
  return runCommand('npm', ['run', 'build', '--silent']);
}

/** Writes a generated catalog of `products` products to `file` with the project's generator (its default seed unless given). */
export function generateCatalog(products: number, file: string, seed?: number): Promise<void> {
  const seedArgs = seed === undefined ? [] : ['--seed', String(seed)];
  return runCommand(process.execPath, ['--import', 'tsx', 'tools/generate-catalog.ts', '--products', String(products), '--out', file, ...seedArgs]);
}

/** The CPUs servers started from here run on, once `pinToSeparateCpus` has pinned this process to the first. */
let serverCpus: string | undefined;

/**
 * Puts the load generator (this process, every thread of it) on the first CPU and every
 * server started afterwards on the others, so that a server and the client driving it
 * never share a core. Unpinned, the scheduler sometimes runs both on one core, which
 * halves a run's figures at random: a bare node:http baseline measured anywhere from
 * 17,000 to 45,000 requests/s for the same answer in one run, and a ratio is only as
 * steady as its baseline. Linux only (taskset); returns how the run was placed, for the
 * report.
 */
export function pinToSeparateCpus(): string {
  const cpus = machineCpus().length;
  if (process.platform !== 'linux' || cpus < 2) return `not pinned (${cpus} CPU${cpus === 1 ? '' : 's'} on ${process.platform})`;
  const servers = cpus === 2 ? '1' : `1-${cpus - 1}`;
  try {
    execFileSync('taskset', ['--all-tasks', '--cpu-list', '--pid', '0', String(process.pid)], { stdio: 'ignore' });
  } catch (error) {
    return `not pinned (taskset failed: ${(error as Error).message.split('\n')[0]})`;
  }
  serverCpus = servers;
  return `load generator on CPU 0, servers on CPU ${servers} (taskset)`;
}

export interface RunningProcess {
  /** `http://127.0.0.1:PORT` */
  url: string;
  pid: number;
  /** Resolves once the process has exited, with how: `exit code 1`, `signal SIGKILL`. */
  exited: Promise<string>;
  /** The last lines the process printed. */
  outputTail(): string;
  /** SIGTERM, then waits for the exit. */
  stop(): Promise<string>;
}

/**
 * Starts `node <args>` on a free port of 127.0.0.1 with only `env` (and PATH) in its
 * environment, so nothing from the caller's shell (a DATABASE_URL, a METRICS_TOKEN)
 * changes what is measured; resolves once GET `readyPath` answers 2xx, and fails after
 * `startTimeoutMs`. `env` may be made from the URL the process will answer at (its
 * PUBLIC_BASE_URL).
 */
export async function startNodeProcess(
  args: string[],
  env: Record<string, string> | ((url: string) => Record<string, string>),
  readyPath: string,
  { startTimeoutMs = START_TIMEOUT_MS, outputFile }: { startTimeoutMs?: number; /** Where to copy all the process prints (a --trace-gc run's lines, say), beside the kept tail. */ outputFile?: string } = {},
): Promise<RunningProcess> {
  // Opened before anything starts, so that a path that cannot be written is refused first.
  const copy = outputFile === undefined ? undefined : openSync(outputFile, 'w');
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const [command, commandArgs] = serverCpus === undefined ? [process.execPath, args] : ['taskset', ['--cpu-list', serverCpus, process.execPath, ...args]];
  // taskset replaces itself with node, so the child's pid is the server's.
  const child = spawn(command, commandArgs, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...(typeof env === 'function' ? env(url) : env), HOST: '127.0.0.1', PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // Always drained: an unread pipe fills up and then blocks the process's logging.
  const tail: string[] = [];
  for (const stream of [child.stdout, child.stderr]) {
    createInterface({ input: stream }).on('line', (line) => {
      tail.push(line);
      if (tail.length > OUTPUT_TAIL_LINES) tail.shift();
      // Written at once: what a process printed last matters most when the benchmark fails.
      if (copy !== undefined) writeSync(copy, `${line}\n`);
    });
  }
  // 'close' comes once its output has been read to the end, which may be after 'exit'.
  if (copy !== undefined) child.once('close', () => closeSync(copy));
  const exited = once(child, 'exit').then(([code, signal]) => (signal ? `signal ${String(signal)}` : `exit code ${String(code)}`));
  const running: RunningProcess = {
    url,
    pid: child.pid!,
    exited,
    outputTail: () => tail.join('\n'),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
  const deadline = performance.now() + startTimeoutMs;
  let hasExited = false;
  void exited.then(() => (hasExited = true));
  while (!(await answersOk(`${url}${readyPath}`))) {
    if (hasExited) throw new Error(`${args.join(' ')} ended (${await exited}) before it was ready:\n${running.outputTail()}`);
    if (performance.now() > deadline) {
      await running.stop();
      throw new Error(`${args.join(' ')} was not ready within ${startTimeoutMs / 1000} s:\n${running.outputTail()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, READY_POLL_MS));
  }
  return running;
}

async function answersOk(url: string): Promise<boolean> {
  try {
    const response = await fetch(url);
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}

/** A port nothing listens on right now (the OS picks it); another process could still take it first, which start-up then reports. */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface Measurement {
  requestsPerSecond: number;
  /** Latency of the 2xx answers in milliseconds, to the microsecond. */
  p50: number;
  p99: number;
  errors: number;
}

/** A percentile in milliseconds of a histogram of microseconds; 0 when it is empty. */
export function percentileMs(histogram: RecordableHistogram, percentile: number): number {
  return histogram.count === 0 ? 0 : histogram.percentile(percentile) / 1000;
}

/**
 * One autocannon run: mean requests/s, latency percentiles, failed and non-2xx answers.
 * The percentiles come from each response's own time: autocannon's histogram keeps whole
 * milliseconds, too coarse for answers that take one or two.
 */
export async function measure(options: autocannon.Options): Promise<Measurement> {
  const latency = createHistogram();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(options, (error, finished) => (error ? reject(error as Error) : resolve(finished)));
    instance.on('response', (_client, statusCode, _bytes, responseTimeMs) => {
      if (statusCode >= 200 && statusCode < 300) latency.record(Math.max(1, Math.round(responseTimeMs * 1000)));
    });
  });
  return {
    requestsPerSecond: result.requests.average,
    p50: percentileMs(latency, 50),
    p99: percentileMs(latency, 99),
    errors: result.errors + result.non2xx,
  };
}

/** A figure of /proc/PID/status in MiB: VmRSS, what a process holds in memory now; VmHWM, the most it has held. */
async function procStatusMib(pid: number, field: 'VmRSS' | 'VmHWM'): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  const kb = Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** A running process's resident memory in MiB, from /proc. */
export function rssMb(running: Pick<RunningProcess, 'pid'>): Promise<number> {
  return procStatusMib(running.pid, 'VmRSS');
}

/** How often a command run by {@link runMeasuredNodeCommand} has its peak RSS read: what it reaches in its last interval is missed. */
const PEAK_POLL_MS = 100;

export interface CommandRun {
  seconds: number;
  /** The highest RSS (VmHWM) read while it ran, in MiB. */
  peakRssMib: number;
}

/**
 * Runs `node <args>` to completion in the repository with only `env` (and PATH), as
 * {@link startNodeProcess} starts a server, its output shown; resolves with how long it
 * took and its peak RSS, and rejects on a non-zero exit.
 */
export async function runMeasuredNodeCommand(args: string[], env: Record<string, string>): Promise<CommandRun> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { cwd: REPO_ROOT, env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'inherit' });
  const exited = once(child, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
  let peakRssMib = 0;
  const polling = setInterval(() => {
    procStatusMib(child.pid!, 'VmHWM').then(
      (mib) => (peakRssMib = Math.max(peakRssMib, mib)),
      () => {}, // gone between the poll and the read: it has exited
    );
  }, PEAK_POLL_MS);
  const [code, signal] = await exited.finally(() => clearInterval(polling));
  if (code !== 0) throw new Error(`node ${args.join(' ')} exited with ${signal ? `signal ${signal}` : `code ${code}`}`);
  return { seconds: (performance.now() - started) / 1000, peakRssMib };
}

const METRICS_TIMEOUT_MS = 5_000;
const MIB = 1024 * 1024;

export interface Memory {
  rssMib: number;
  /** V8 heap in use. */
  heapMib: number;
  /** V8 heap reserved: what RSS holds of the heap, in use or not. */
  heapTotalMib: number;
  /** Memory of JavaScript objects held outside the V8 heap (Buffers, ArrayBuffers). */
  externalMib: number;
  /** The heap reserved by each of V8's spaces (old, code, large_object, ...), which says where growth of the reserve comes from. */
  heapSpacesMib: Record<string, number>;
}

/** Resident memory and V8 heap, as the server's own /metrics reports them; undefined when it does not answer. */
export async function readMemory(baseUrl: string): Promise<Memory | undefined> {
  try {
    const response = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(METRICS_TIMEOUT_MS) });
    const text = await response.text();
    const gauge = (name: string) => Number(new RegExp(`^${name} (\\S+)$`, 'm').exec(text)?.[1]) / MIB;
    const memory = {
      rssMib: gauge('process_resident_memory_bytes'),
      heapMib: gauge('nodejs_heap_size_used_bytes'),
      heapTotalMib: gauge('nodejs_heap_size_total_bytes'),
      externalMib: gauge('nodejs_external_memory_bytes'),
    };
    const heapSpacesMib = Object.fromEntries(
      [...text.matchAll(/^nodejs_heap_space_size_total_bytes\{space="(\w+)"\} (\S+)$/gm)].map(([, space, bytes]) => [space, Number(bytes) / MIB]),
    );
    return response.ok && Object.values(memory).every(Number.isFinite) ? { ...memory, heapSpacesMib } : undefined;
  } catch {
    return undefined;
  }
}
