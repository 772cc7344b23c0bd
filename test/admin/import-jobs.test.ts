import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalog, product, REGIONS } from '../support/catalog-builder.js';
import { adminClient, assertAdminError, endedImport, importOverHttp, postImport, withAdmin } from '../support/admin.js';
import { pollUntil } from '../support/poll.js';
import { useTestApp, type TestApp } from '../support/test-app.js';

/** 16 batches of 500 products: long enough to be seen running, and cancelled, between its batches. */
const PRODUCTS = 8000;
/** A hang guard only. */
const LIMIT_MS = 120_000;
const bulkFile = (prefix: string) => catalog(Array.from({ length: PRODUCTS }, (_, i) => product(`${prefix}-${i}`)));

const admin = (testApp: TestApp) => adminClient(testApp);
const readJob = async (testApp: TestApp, id: string) => (await admin(testApp)('GET', `/admin/v1/imports/${id}`)).data.job;
/** Products of the store whose handle starts with `prefix`, and how many of them the public catalog serves. */
const stored = async (testApp: TestApp, prefix: string) => {
  const rows = await testApp.store.db.selectFrom('products').select('handle').where('handle', 'like', `${prefix}-%`).execute();
  const served = (await testApp.app.inject({ url: `/public/v1/products/${prefix}-0` })).statusCode === 200;
  return { count: rows.length, firstServed: served };
};

describe('an import job, from 202 to its report', () => {
  const testApp = useTestApp(withAdmin({ catalog: [product('honey')] }));

  it('answers 202 with the queued job and its Location, shows its progress while it runs, and ends succeeded with the report', async () => {
    const accepted = await postImport(testApp, bulkFile('bulk'), '?unpublish_missing=true');
    assert.equal(accepted.statusCode, 202, accepted.body);
    const { job } = accepted.json();
    assert.equal(accepted.headers.location, `/admin/v1/imports/${job.id}`);
    assert.deepEqual(
      { status: job.status, phase: job.phase, actor: job.actor, unpublish_missing: job.unpublish_missing, report: job.report, error: job.error, finished_at: job.finished_at },
      { status: 'queued', phase: 'queued', actor: 'erp', unpublish_missing: true, report: null, error: null, finished_at: null },
    );

    // Progress is written to the job while it writes: seen part-way at least once.
    const seen = await pollUntil(() => readJob(testApp, job.id), (read) => (read.status === 'running' && read.progress.written > 0) || read.finished_at !== null, LIMIT_MS);
    assert.equal(seen.value.status, 'running', `the job ended before any progress was seen: ${JSON.stringify(seen.value)}`);
    assert.equal(seen.value.phase, 'writing');
    assert.equal(seen.value.progress.validated, PRODUCTS);
    assert.equal(seen.value.progress.total_products, PRODUCTS);
    assert.ok(seen.value.progress.written < PRODUCTS);
    assert.ok(seen.value.progress.per_second > 0);
    assert.notEqual(seen.value.started_at, null);

    const ended = await endedImport(testApp, job.id);
    assert.deepEqual([ended.status, ended.phase, ended.error], ['succeeded', 'done', null]);
    assert.equal(ended.progress.written, PRODUCTS);
    assert.deepEqual(ended.report.products, { created: PRODUCTS, updated: 0 });
    assert.deepEqual(ended.report.unpublished, ['honey']);
    assert.equal(ended.report.batches.length, PRODUCTS / 500);
    assert.deepEqual(ended.report.batches.at(-1), { from: PRODUCTS - 499, to: PRODUCTS, catalog_version: ended.report.batches.at(-1).catalog_version });
    assert.deepEqual(ended.catalog_versions, { before: ended.catalog_versions.before, after: ended.report.catalog_version });
    assert.ok(ended.catalog_versions.before < ended.catalog_versions.after);
    assert.ok(Date.parse(ended.finished_at) >= Date.parse(ended.started_at));
    assert.deepEqual(await stored(testApp, 'bulk'), { count: PRODUCTS, firstServed: true });

    // The audit entries name the job and the catalog versions.
    const audit = await admin(testApp)('GET', '/admin/v1/audit?target_type=catalog&limit=1');
    assert.deepEqual(
      [audit.data.entries[0].changes.job, audit.data.entries[0].changes.step, audit.data.entries[0].version_before, audit.data.entries[0].version_after],
      [job.id, 'done', ended.catalog_versions.before, ended.catalog_versions.after],
    );
  });

  it('refuses (409, naming the job) a second import while one is active, before reading its body', async () => {
    const accepted = await postImport(testApp, bulkFile('second'));
    assert.equal(accepted.statusCode, 202, accepted.body);
    const { id } = accepted.json().job;
    const refused = assertAdminError(await postImport(testApp, '{"version": 1, "regions": ['), 409, 'CONFLICT');
    assert.equal(refused.details.job_id, id);
    assert.match(refused.hint, /cancel/);
    assert.equal((await endedImport(testApp, id)).status, 'succeeded');
    assert.equal((await importOverHttp(testApp, catalog([product('honey')]))).status, 'succeeded', 'the next one runs once it has ended');
  });

  it('answers 404 for an unknown job, to a read and to a cancel', async () => {
    assertAdminError(await admin(testApp)('GET', '/admin/v1/imports/imp_000000000000000000000000'), 404, 'NOT_FOUND');
    assertAdminError(await admin(testApp)('POST', '/admin/v1/imports/imp_000000000000000000000000/cancel'), 404, 'NOT_FOUND');
  });

  it('lists the jobs newest first, paging with next_cursor through each once; refuses a bad limit or cursor (400)', async () => {
    const all = (await admin(testApp)('GET', '/admin/v1/imports?limit=100')).data;
    assert.equal(all.next_cursor, null);
    assert.ok(all.jobs.length >= 3);
    const times = all.jobs.map((job: any) => job.created_at);
    assert.deepEqual(times, [...times].sort().reverse());
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await admin(testApp)('GET', `/admin/v1/imports?limit=2${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.statusCode, 200, page.body);
      assert.ok(page.data.jobs.length <= 2);
      seen.push(...page.data.jobs.map((job: any) => job.id));
      cursor = page.data.next_cursor;
    } while (cursor);
    assert.deepEqual(seen, all.jobs.map((job: any) => job.id));
    for (const query of ['limit=0', 'limit=101', 'cursor=not-a-cursor', 'status=running']) {
      assertAdminError(await admin(testApp)('GET', `/admin/v1/imports?${query}`), 400, 'INVALID_REQUEST');
    }
  });
});

describe('cancelling an import job', () => {
  const testApp = useTestApp(withAdmin({ catalog: [product('honey')] }));

  it('stops a running 8,000-product import between batches: cancelled, fewer written than the file has, the catalog whole batches of it', async () => {
    const accepted = await postImport(testApp, bulkFile('bulk'));
    assert.equal(accepted.statusCode, 202, accepted.body);
    const { id } = accepted.json().job;
    const running = await pollUntil(() => readJob(testApp, id), (read) => read.progress.written > 0 || read.finished_at !== null, LIMIT_MS);
    assert.equal(running.value.status, 'running', JSON.stringify(running.value));

    const cancelled = await admin(testApp)('POST', `/admin/v1/imports/${id}/cancel`);
    assert.equal(cancelled.statusCode, 202, cancelled.body);
    assert.equal(cancelled.data.job.status, 'cancelling');
    const again = await admin(testApp)('POST', `/admin/v1/imports/${id}/cancel`);
    assert.deepEqual([again.statusCode, again.data.job.status], [202, 'cancelling']);

    const ended = await endedImport(testApp, id);
    assert.deepEqual([ended.status, ended.phase, ended.error], ['cancelled', 'done', null]);
    const written = ended.report.batches.at(-1).to;
    assert.ok(written < PRODUCTS, `${written} written`);
    assert.deepEqual(ended.report.products, { created: written, updated: 0 });
    assert.equal(ended.report.batches.length * 500, written, 'whole batches');
    assert.equal(ended.catalog_versions.after, ended.report.catalog_version);
    assert.deepEqual(ended.report.unpublished, []);
    // What the report says was written is what the store holds and the catalog serves.
    assert.deepEqual(await stored(testApp, 'bulk'), { count: written, firstServed: true });
    const served = (await testApp.app.inject({ url: `/public/v1/products/bulk-${written - 1}` })).statusCode;
    const notWritten = (await testApp.app.inject({ url: `/public/v1/products/bulk-${written}` })).statusCode;
    assert.deepEqual([served, notWritten], [200, 404]);
  });

  it('refuses (409) to cancel a job that has ended', async () => {
    const job = await importOverHttp(testApp, catalog([product('honey')]));
    assert.equal(job.status, 'succeeded');
    const refused = assertAdminError(await admin(testApp)('POST', `/admin/v1/imports/${job.id}/cancel`), 409, 'CONFLICT');
    assert.match(refused.message, /already ended \(succeeded\)/);
    assert.equal((await readJob(testApp, job.id)).status, 'succeeded');
  });
});

describe('import jobs kept (ADMIN_IMPORT_JOBS_RETAINED)', () => {
  const testApp = useTestApp(withAdmin({ catalog: [product('honey')] }, { ADMIN_IMPORT_JOBS_RETAINED: '2' }));

  it('keeps the newest ended jobs, deleting older ones as new jobs are created', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 4; i++) ids.push((await importOverHttp(testApp, catalog([product('honey')]))).id);
    const listed = (await admin(testApp)('GET', '/admin/v1/imports')).data.jobs.map((job: any) => job.id);
    assert.deepEqual(listed, [ids[3], ids[2]]);
    assertAdminError(await admin(testApp)('GET', `/admin/v1/imports/${ids[0]}`), 404, 'NOT_FOUND');
  });
});

describe("an import and the countries an admin moved (PUT /admin/v1/regions/{id})", () => {
  const testApp = useTestApp(withAdmin({ catalog: [product('honey')] }));
  const countries = async () =>
    Object.fromEntries((await admin(testApp)('GET', '/admin/v1/regions')).data.regions.map((region: any) => [region.id, region.countries]));

  it('keeps the admin\'s change and reports the conflict, import after import, until a file agrees; then files manage the countries again', async () => {
    // The seed's file puts FR in reg_eu; an admin moves it to a region of its own.
    const moved = await admin(testApp)('PUT', '/admin/v1/regions/reg_fr', { name: 'France', currency: 'EUR', countries: ['FR'] });
    assert.equal(moved.statusCode, 201, moved.body);

    const renamed = REGIONS.map((region) => (region.id === 'reg_gb' ? { ...region, name: 'Great Britain' } : region));
    for (const run of [1, 2]) {
      const job = await importOverHttp(testApp, catalog([product('honey')], renamed));
      assert.equal(job.status, 'succeeded', JSON.stringify(job));
      assert.deepEqual(job.report.regions.conflicts, [{ country: 'FR', kept_in: 'reg_fr', file_region: 'reg_eu' }], `import ${run}`);
      assert.deepEqual((await countries()).reg_fr, ['FR'], `import ${run} kept the admin's change`);
      assert.deepEqual((await countries()).reg_eu, ['DE']);
      const byId = Object.fromEntries(job.report.regions.changes.map((change: any) => [change.id, change]));
      assert.deepEqual(byId.reg_gb, run === 1 ? { id: 'reg_gb', change: 'updated', fields: ['name'], countries_added: [], countries_removed: [] } : { id: 'reg_gb', change: 'unchanged', fields: [], countries_added: [], countries_removed: [] });
      assert.equal(byId.reg_eu.change, 'unchanged');
    }
    const log = await admin(testApp)('GET', '/admin/v1/audit?target_type=region&target_id=reg_fr&limit=1');
    assert.deepEqual([log.data.entries[0].action, log.data.entries[0].changes.countries_held], ['import', ['FR']]);

    // A file that agrees: no conflict, and the hold is released.
    const agreeing = [...renamed.map((region) => (region.id === 'reg_eu' ? { ...region, countries: ['DE'] } : region)), { id: 'reg_fr', name: 'France', currency: 'EUR', countries: ['FR'] }];
    const agreed = await importOverHttp(testApp, catalog([product('honey')], agreeing));
    assert.deepEqual(agreed.report.regions.conflicts, []);

    // From then on the file decides: FR moves back to reg_eu, reported per region.
    const back = await importOverHttp(testApp, catalog([product('honey')], [...renamed, { id: 'reg_fr', name: 'France', currency: 'EUR', countries: ['MC'] }]));
    assert.deepEqual(back.report.regions.conflicts, []);
    const byId = Object.fromEntries(back.report.regions.changes.map((change: any) => [change.id, change]));
    assert.deepEqual(byId.reg_eu, { id: 'reg_eu', change: 'updated', fields: ['countries'], countries_added: ['FR'], countries_removed: [] });
    assert.deepEqual(byId.reg_fr, { id: 'reg_fr', change: 'updated', fields: ['countries'], countries_added: ['MC'], countries_removed: ['FR'] });
    assert.deepEqual([(await countries()).reg_eu, (await countries()).reg_fr], [['DE', 'FR'], ['MC']]);
  });
});
