import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ADMIN_TOKENS, ERP_TOKEN, withAdmin } from '../support/admin.js';
import { catalog, product } from '../support/catalog-builder.js';
import { isolatedServerEnv, type IsolatedServerEnv } from '../support/isolated-server-env.js';
import { pollUntil } from '../support/poll.js';
import { sample } from '../support/prometheus.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';
import { startTestApp } from '../support/test-app.js';

/** 16 batches of 500 products: the import is killed while it writes them. */
const PRODUCTS = 8000;
/** A hang guard only: the batches before the kill are written within seconds. */
const WRITE_LIMIT_MS = 120_000;

const metrics = async (server: ServerProcess) => {
  const text = await (await fetch(`${server.url}/metrics`)).text();
  return { version: sample(text, 'vetrina_catalog_version') ?? 0, products: sample(text, 'vetrina_catalog_products') ?? 0 };
};
const uploads = async (dir: string) => (await readdir(dir)).filter((name) => name.startsWith('vetrina-import-'));

describe('an import killed half-way (SIGKILL)', () => {
  let isolated: IsolatedServerEnv;
  let tmp: string;
  let env: Record<string, string>;

  before(async () => {
    isolated = await isolatedServerEnv();
    // The server's own temporary directory, to see the uploads it leaves.
    tmp = await mkdtemp(path.join(os.tmpdir(), 'vetrina-tmp-'));
    env = { ...isolated.env, ADMIN_TOKENS, CATALOG_SEED: 'none', TMPDIR: tmp, REQUEST_TIMEOUT_MS: '120000' };
  });
  after(async () => {
    await isolated.cleanup();
    await rm(tmp, { recursive: true, force: true });
  });

  it('leaves an audit entry for each transaction it committed; the next start marks its job failed (INTERRUPTED) with those batches, and removes its upload', async () => {
    const first = await startServerProcess(env);
    let jobId: string;
    try {
      const start = await metrics(first);
      const file = JSON.stringify(catalog(Array.from({ length: PRODUCTS }, (_, i) => product(`bulk-${i}`))));
      const accepted = await fetch(`${first.url}/admin/v1/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ERP_TOKEN}`, 'content-type': 'application/json' },
        body: file,
      });
      assert.equal(accepted.status, 202, await accepted.clone().text());
      jobId = ((await accepted.json()) as any).job.id;
      // The regions' transaction and two batches are in.
      const moved = await pollUntil(() => metrics(first), (now) => now.version >= start.version + 3, WRITE_LIMIT_MS);
      assert.ok(moved.value.version >= start.version + 3, first.output());
    } finally {
      await first.stop('SIGKILL');
    }
    assert.equal((await uploads(tmp)).length, 1, 'the killed import left its upload');

    const second = await startServerProcess(env);
    try {
      const served = await metrics(second);
      // Once its heartbeat is older than the lease, the new server marks the job failed.
      const readJob = async () => ((await (await fetch(`${second.url}/admin/v1/imports/${jobId}`, { headers: { authorization: `Bearer ${ERP_TOKEN}` } })).json()) as any).job;
      const { value: job } = await pollUntil(readJob, (read) => read.status !== 'running', WRITE_LIMIT_MS);
      assert.deepEqual([job.status, job.phase, job.error?.code], ['failed', 'done', 'INTERRUPTED'], JSON.stringify(job));
      assert.equal(job.report.catalog_version, served.version);
      assert.equal(job.catalog_versions.after, served.version);
      assert.equal(job.report.batches.at(-1).to, served.products, 'its report lists the batches committed, each whole');
      assert.deepEqual(job.report.batches.map((batch: any) => batch.to - batch.from + 1), job.report.batches.map(() => 500));
      assert.equal(job.report.products.created, served.products);
      assert.ok(served.products > 0 && served.products < PRODUCTS, `${served.products} products served`);
      const audit = (await (await fetch(`${second.url}/admin/v1/audit?limit=100`, { headers: { authorization: `Bearer ${ERP_TOKEN}` } })).json()) as any;
      const entries = audit.entries.filter((entry: any) => entry.action === 'import' && entry.target_type === 'catalog' && entry.actor === 'erp');
      assert.ok(entries.every((entry: any) => entry.changes.job === jobId && entry.version_before === job.catalog_versions.before));
      assert.ok(entries.length >= 3, JSON.stringify(audit));
      assert.deepEqual(entries.at(-1).changes.step, 'regions');
      assert.ok(entries.slice(0, -1).every((entry: any) => entry.changes.step === 'products'), 'no step after the batches: the import never ended');
      // The newest entry is the last step committed: the catalog as it is served.
      assert.equal(entries[0].version_after, served.version);
      assert.equal(entries[0].changes.products.to, served.products);
      assert.deepEqual(await uploads(tmp), []);
    } finally {
      await second.stop();
    }
  });
});

describe('a server stopped (SIGTERM) while it runs an import job', () => {
  let isolated: IsolatedServerEnv;
  before(async () => {
    isolated = await isolatedServerEnv();
  });
  after(() => isolated.cleanup());

  it('ends the job failed (INTERRUPTED) after the batch it writes, with its report, and exits 0', async () => {
    const env = { ...isolated.env, ADMIN_TOKENS, CATALOG_SEED: 'none', REQUEST_TIMEOUT_MS: '120000' };
    const server = await startServerProcess(env);
    const readJob = async (url: string, id: string) => ((await (await fetch(`${url}/admin/v1/imports/${id}`, { headers: { authorization: `Bearer ${ERP_TOKEN}` } })).json()) as any).job;
    let id: string;
    try {
      const file = JSON.stringify(catalog(Array.from({ length: PRODUCTS }, (_, i) => product(`term-${i}`))));
      const accepted = await fetch(`${server.url}/admin/v1/imports`, { method: 'POST', headers: { authorization: `Bearer ${ERP_TOKEN}`, 'content-type': 'application/json' }, body: file });
      assert.equal(accepted.status, 202);
      id = ((await accepted.json()) as any).job.id;
      const writing = await pollUntil(() => readJob(server.url, id), (job) => job.progress.written > 0 || job.finished_at !== null, WRITE_LIMIT_MS);
      assert.equal(writing.value.status, 'running', JSON.stringify(writing.value));
    } finally {
      assert.equal(await server.stop('SIGTERM'), 0, server.output());
    }
    const next = await startServerProcess(env);
    try {
      // Marked by the server that ran it, before it exited: no lease to wait for.
      const job = await readJob(next.url, id);
      assert.deepEqual([job.status, job.error?.code], ['failed', 'INTERRUPTED'], JSON.stringify(job));
      const written = job.report.batches.at(-1).to;
      assert.ok(written < PRODUCTS);
      assert.equal((await metrics(next)).products, written);
    } finally {
      await next.stop();
    }
  });
});

describe('uploads left behind, removed when a server starts', () => {
  let tmp: string;
  let previousTmpdir: string | undefined;
  before(async () => {
    tmp = await mkdtemp(path.join(os.tmpdir(), 'vetrina-tmp-'));
    previousTmpdir = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
  });
  after(async () => {
    if (previousTmpdir === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previousTmpdir;
    await rm(tmp, { recursive: true, force: true });
  });

  it('removes those of an earlier process with this pid (a restarted container) and keeps those of running processes', async () => {
    const earlierLife = `vetrina-import-${process.pid}.0123456789ab-x1`;
    const runningProcess = `vetrina-import-1.0123456789ab-x2`;
    for (const name of [earlierLife, runningProcess]) await mkdir(path.join(tmp, name));
    const testApp = await startTestApp(withAdmin({ catalog: [product('honey')] }));
    try {
      assert.deepEqual(await uploads(tmp), [runningProcess]);
    } finally {
      await testApp.close();
    }
  });
});
