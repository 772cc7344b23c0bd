import assert from 'node:assert/strict';
import { after, before, describe, it, type TestContext } from 'node:test';
import { ADMIN_TOKENS, ERP_TOKEN } from '../support/admin.js';
import { isolatedServerEnv, type IsolatedServerEnv } from '../support/isolated-server-env.js';
import { pollUntil } from '../support/poll.js';
import { needsProductionServices } from '../support/production-services.js';
import { catalog, product } from '../support/catalog-builder.js';
import { startServerProcess, type ServerProcess } from '../support/server-process.js';

/**
 * Only a hang guard, far below the poll interval: the issue asks for the others to serve
 * an admin change within 1 s, which the diagnostics report (a busy machine takes longer).
 */
const VISIBLE_WITHIN_MS = 30_000;
/** The longest poll interval the configuration takes. */
const POLL_MS = 3_600_000;

/**
 * Two server processes on one PostgreSQL database and one Redis prefix, polling slowed to
 * an hour: only the Redis announcement can carry the change before the guard.
 */
describe('an admin change through instance A, read on instance B', { skip: needsProductionServices }, () => {
  let isolated: IsolatedServerEnv;
  let instances: ServerProcess[];
  before(async () => {
    isolated = await isolatedServerEnv();
    const env = { ...isolated.env, ADMIN_TOKENS, CATALOG_RATE_LIMIT: '0', CATALOG_POLL_MS: String(POLL_MS) };
    instances = await Promise.all([startServerProcess(env), startServerProcess(env)]);
  });
  after(async () => {
    const exits = await Promise.all((instances ?? []).map((instance) => instance.stop()));
    await isolated.cleanup();
    assert.deepEqual(exits, exits.map(() => 0));
  });

  const detail = async (instance: ServerProcess) => (await (await fetch(`${instance.url}/public/v1/products/caffe-espresso-blend`)).json()) as any;
  const adminCall = (instance: ServerProcess, method: string, path: string, body: unknown) =>
    fetch(`${instance.url}${path}`, { method, headers: { authorization: `Bearer ${ERP_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });

  it('a price change and an unpublish are served by B through the Redis announcement, without waiting for a poll', async (t: TestContext) => {
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const variant = (await detail(b)).product.variants[0];
    const amount = Math.round(variant.price.amount * 100) + 111;

    const priced = await adminCall(a, 'PATCH', `/admin/v1/variants/${variant.id}`, { prices: [{ currency: 'EUR', amount }] });
    assert.equal(priced.status, 200, await priced.text());
    assert.equal((await detail(a)).product.variants[0].price.amount, amount / 100, 'A serves its own write at once');
    const repriced = await pollUntil(() => detail(b), (body) => body.product.variants[0].price.amount === amount / 100, VISIBLE_WITHIN_MS);
    assert.equal(repriced.value.product.variants[0].price.amount, amount / 100, `B did not serve the price within ${VISIBLE_WITHIN_MS} ms`);
    t.diagnostic(`price served by B ${Math.round(repriced.ms)} ms after A answered`);

    const drafted = await adminCall(a, 'PATCH', '/admin/v1/products/caffe-espresso-blend', { status: 'draft' });
    assert.equal(drafted.status, 200);
    const gone = await pollUntil(() => fetch(`${b.url}/public/v1/products/caffe-espresso-blend`).then((response) => response.status), (status) => status === 404, VISIBLE_WITHIN_MS);
    assert.equal(gone.value, 404);
    t.diagnostic(`unpublish served by B ${Math.round(gone.ms)} ms after A answered`);
  });

  it('a category renamed through A is served by B under its new title', async (t: TestContext) => {
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const renamed = await adminCall(a, 'PUT', '/admin/v1/categories/espresso', { parent: 'coffee', titles: { en: 'Espresso, renamed' } });
    assert.equal(renamed.status, 200, await renamed.text());
    const titleOn = async (instance: ServerProcess) => {
      const { categories } = (await (await fetch(`${instance.url}/public/v1/categories`)).json()) as { categories: { handle: string; title: string }[] };
      return categories.find((category) => category.handle === 'espresso')?.title;
    };
    assert.equal(await titleOn(a), 'Espresso, renamed', 'A serves its own write at once');
    const served = await pollUntil(() => titleOn(b), (title) => title === 'Espresso, renamed', VISIBLE_WITHIN_MS);
    assert.equal(served.value, 'Espresso, renamed', `B did not serve the new title within ${VISIBLE_WITHIN_MS} ms`);
    t.diagnostic(`category title served by B ${Math.round(served.ms)} ms after A answered`);
  });
  it('an import job run by A is read and cancelled through B; A stops it, logs it, and B reads its end', async (t: TestContext) => {
    const [a, b] = instances as [ServerProcess, ServerProcess];
    const file = catalog(Array.from({ length: 8000 }, (_, i) => product(`multi-${i}`)));
    const accepted = await adminCall(a, 'POST', '/admin/v1/imports', file);
    assert.equal(accepted.status, 202, await accepted.clone().text());
    const { id } = ((await accepted.json()) as any).job;
    const readOn = async (instance: ServerProcess) => ((await (await fetch(`${instance.url}/admin/v1/imports/${id}`, { headers: { authorization: `Bearer ${ERP_TOKEN}` } })).json()) as any).job;

    const running = await pollUntil(() => readOn(b), (job) => job.progress.written > 0 || job.finished_at !== null, VISIBLE_WITHIN_MS);
    assert.equal(running.value.status, 'running', JSON.stringify(running.value));
    const refused = await adminCall(b, 'POST', '/admin/v1/imports', catalog([product('other')]));
    assert.equal(refused.status, 409, 'one import at a time across instances');
    const cancelled = await fetch(`${b.url}/admin/v1/imports/${id}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${ERP_TOKEN}` } });
    assert.equal(cancelled.status, 202);

    const ended = await pollUntil(() => readOn(b), (job) => job.finished_at !== null, VISIBLE_WITHIN_MS);
    assert.equal(ended.value.status, 'cancelled', JSON.stringify(ended.value));
    assert.ok(ended.value.report.batches.at(-1).to < 8000);
    const logged = await a.waitForLog((entry) => entry.job === id);
    assert.deepEqual([logged.msg, logged.level, logged.catalog_versions], ['catalog import cancelled', 30, ended.value.catalog_versions]);
    t.diagnostic(`cancelled after ${ended.value.report.batches.at(-1).to} of 8000 products`);
  });
});
