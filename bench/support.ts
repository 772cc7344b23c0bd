import { spawn, type ChildProcess } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import autocannon from 'autocannon';

/** What the benchmarks share: the repository root, child servers, autocannon, RSS. */
export const root = path.resolve(import.meta.dirname, '..');
const children: ChildProcess[] = [];

export interface Measurement {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

export async function measure(options: autocannon.Options): Promise<Measurement> {
  const result = await autocannon(options);
  return {
    requestsPerSecond: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx,
  };
}

export async function rssMb(child: ChildProcess): Promise<number> {
  const status = await readFile(`/proc/${child.pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Starts `node args` with `env` on `port` and resolves once it answers HTTP. */
export function startServer(args: string[], port: number, env: Record<string, string>): Promise<ChildProcess> {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env, PORT: String(port) }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    const deadline = setTimeout(() => reject(new Error(`server on ${port} did not start`)), 300_000);
    const poll = setInterval(() => {
      fetch(`http://127.0.0.1:${port}/`).then(
        () => {
          clearInterval(poll);
          clearTimeout(deadline);
          resolve(child);
        },
        () => {},
      );
    }, 200);
    child.once('exit', (code) => reject(new Error(`server on ${port} exited with ${code}`)));
  });
}

export function stopServers(): void {
  for (const child of children) child.kill('SIGTERM');
}

export function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: root, stdio: 'inherit' });
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} exited with ${code}`))));
  });
}
