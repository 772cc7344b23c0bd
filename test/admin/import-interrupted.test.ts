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

  it('leaves an audit entry for each transaction it committed, and the next start removes its upload', async () => {
    const first = await startServerProcess(env);
    let importing: Promise<unknown> | undefined;
    try {
      const start = await metrics(first);
      const file = JSON.stringify(catalog(Array.from({ length: PRODUCTS }, (_, i) => product(`bulk-${i}`))));
      importing = fetch(`${first.url}/admin/v1/imports`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ERP_TOKEN}`, 'content-type': 'application/json' },
        body: file,
      }).catch((error: unknown) => error);
      // The regions' transaction and two batches are in.
      const moved = await pollUntil(() => metrics(first), (now) => now.version >= start.version + 3, WRITE_LIMIT_MS);
      assert.ok(moved.value.version >= start.version + 3, first.output());
    } finally {
      await first.stop('SIGKILL');
      await importing;
    }
    assert.equal((await uploads(tmp)).length, 1, 'the killed import left its upload');

    const second = await startServerProcess(env);
    try {
      const served = await metrics(second);
      assert.ok(served.products > 0 && served.products < PRODUCTS, `${served.products} products served`);
      const audit = (await (await fetch(`${second.url}/admin/v1/audit?limit=100`, { headers: { authorization: `Bearer ${ERP_TOKEN}` } })).json()) as any;
      const entries = audit.entries.filter((entry: any) => entry.action === 'import' && entry.actor === 'erp');
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
