// `npm start`: builds dist/ only when a source is newer than the last build, then runs
// the server in this very process, so that npm's signals (SIGTERM, SIGINT) reach the
// server itself and nothing is left running when it exits. Plain JavaScript, so that a
// start needs neither tsx nor a compile of its own.
import { spawn } from 'node:child_process';
import { readdirSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import process from 'node:process';

const root = path.dirname(import.meta.dirname);
/** Written after each build this launcher ran, dated when that build started: a source changed while it ran is newer. */
const STAMP = path.join(root, 'dist', '.npm-start-build');
/** What the build reads: the sources (the portal's assets among them) and what compiles them. */
const SOURCES = ['src', 'tsconfig.json', 'tsconfig.build.json', 'package.json', 'package-lock.json'];

function newestChange(entry) {
  const stats = statSync(entry, { throwIfNoEntry: false });
  if (!stats) return 0;
  if (!stats.isDirectory()) return stats.mtimeMs;
  return readdirSync(entry).reduce((newest, name) => Math.max(newest, newestChange(path.join(entry, name))), stats.mtimeMs);
}

function built() {
  return statSync(STAMP, { throwIfNoEntry: false })?.mtimeMs ?? -1;
}

async function build() {
  const started = Date.now();
  process.stderr.write('npm start: the sources changed since the last build; building dist/ (npm run build)\n');
  const child = spawn(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
  // A stop asked for while it builds stops the build too.
  const forward = (signal) => child.kill(signal);
  process.on('SIGTERM', forward).on('SIGINT', forward);
  const [code, signal] = await new Promise((resolve) => child.on('close', (...end) => resolve(end)));
  process.off('SIGTERM', forward).off('SIGINT', forward);
  if (code !== 0) {
    process.stderr.write(`npm start: the build ${signal ? `was stopped by ${signal}` : `failed (exit code ${code})`}; the server was not started\n`);
    process.exit(signal ? 0 : 1);
  }
  writeFileSync(STAMP, '');
  utimesSync(STAMP, started / 1000, started / 1000);
  process.stderr.write(`npm start: built in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

if (newestChange(path.join(root, 'dist', 'server.js')) === 0 || SOURCES.some((source) => newestChange(path.join(root, source)) > built())) await build();
await import('../dist/server.js');
