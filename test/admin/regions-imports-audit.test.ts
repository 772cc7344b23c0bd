import assert from 'node:assert/strict';
import net from 'node:net';
import { describe, it } from 'node:test';
import { catalog, product, REGIONS, variant } from '../support/catalog-builder.js';
import { ERP_TOKEN, adminClient, assertAdminError, importOverHttp, postImport, withAdmin } from '../support/admin.js';
import { listeningPort } from '../support/raw-http.js';
import { useTestApp } from '../support/test-app.js';

const PRODUCTS = [
  product('olive-oil', { variants: [variant('OIL', { manage_inventory: true, inventory_quantity: 4, prices: [{ currency: 'EUR', amount: 1650 }, { currency: 'GBP', amount: 1400, region: 'reg_gb' }] })] }),
  product('honey', { variants: [variant('HONEY', { manage_inventory: true, inventory_quantity: 1, prices: [{ currency: 'EUR', amount: 800 }] })] }),
];

describe('a sandbox cart after admin changes', () => {
  const testApp = useTestApp(withAdmin({ catalog: PRODUCTS }));
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(testApp)(...args);

  it('shows the new price of a variant it holds; a variant that just went out of stock cannot be added (422)', async () => {
    const token = await testApp.newKey();
    const cart = await testApp.newCart(token);
    const oil = await testApp.variantId('OIL');
    const honey = await testApp.variantId('HONEY');
    const added = await testApp.call(token, 'POST', `/sandbox/v1/carts/${cart.id}/items`, { variant_id: oil, quantity: 2 });
    assert.equal(added.statusCode, 201, added.body);
    assert.equal(added.data.items[0].unit_price, 16.5);

    assert.equal((await admin('POST', '/admin/v1/prices', { rows: [{ sku: 'OIL', currency: 'EUR', amount: 1990 }] })).statusCode, 200);
    const read = await testApp.call(token, 'GET', `/sandbox/v1/carts/${cart.id}`);
    assert.equal(read.data.items[0].unit_price, 19.9);
    assert.equal(read.data.totals.item_total, 39.8);

    assert.equal((await admin('POST', '/admin/v1/inventory', { rows: [{ sku: 'HONEY', inventory_quantity: 0 }] })).statusCode, 200);
    const refused = await testApp.call(token, 'POST', `/sandbox/v1/carts/${cart.id}/items`, { variant_id: honey, quantity: 1 });
    assert.equal(refused.statusCode, 422, refused.body);
    assert.equal(refused.data.error, 'sandbox_variant_not_purchasable');
  });
});

describe('admin regions', () => {
  const testApp = useTestApp(withAdmin({ catalog: PRODUCTS }));
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(testApp)(...args);

  it('lists the regions in catalog order and reads one; an unknown id is 404', async () => {
    const listed = await admin('GET', '/admin/v1/regions');
    assert.equal(listed.statusCode, 200, listed.body);
    assert.deepEqual(listed.data.regions, REGIONS);
    const read = await admin('GET', '/admin/v1/regions/reg_gb');
    assert.equal(read.statusCode, 200, read.body);
    assert.deepEqual(read.data.region, REGIONS.find((region) => region.id === 'reg_gb'));
    const unknown = assertAdminError(await admin('GET', '/admin/v1/regions/reg_nowhere'), 404, 'NOT_FOUND');
    assert.match(unknown.hint, /GET \/admin\/v1\/regions/);
    assertAdminError(await admin('GET', '/admin/v1/regions/Not%20an%20id'), 400, 'INVALID_REQUEST');
  });

  it('creates a region (201) that serves its countries at once, moving a country from another region', async () => {
    const created = await admin('PUT', '/admin/v1/regions/reg_fr', { name: 'France', currency: 'EUR', countries: ['FR'] });
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual(created.data.released, { reg_eu: ['FR'] });
    const detail = (await testApp.app.inject({ url: '/public/v1/products/olive-oil?country=FR' })).json();
    assert.equal(detail.context.region_id, 'reg_fr');
    const replaced = await admin('PUT', '/admin/v1/regions/reg_fr', { name: 'France métropolitaine', currency: 'EUR', countries: ['FR', 'MC'] });
    assert.equal(replaced.statusCode, 200);
    assert.deepEqual(replaced.data.region, { id: 'reg_fr', name: 'France métropolitaine', currency: 'EUR', countries: ['FR', 'MC'] });
    const audit = await admin('GET', '/admin/v1/audit?target_type=region&limit=1');
    assert.equal(audit.data.entries[0].action, 'replace');
  });

  it('refuses (409) to leave a region with no country, or to change the currency of a region with prices', async () => {
    const regions = async () => testApp.store.db.selectFrom('region_countries').selectAll().orderBy('country').execute();
    const before = await regions();
    assertAdminError(await admin('PUT', '/admin/v1/regions/reg_uk2', { name: 'UK', currency: 'GBP', countries: ['GB'] }), 409, 'CONFLICT');
    const currency = assertAdminError(await admin('PUT', '/admin/v1/regions/reg_gb', { name: 'United Kingdom', currency: 'EUR', countries: ['GB'] }), 409, 'CONFLICT');
    assert.match(currency.message, /has prices in GBP/);
    assert.deepEqual(await regions(), before);
    for (const payload of [{ name: 'X', currency: 'eur', countries: ['XX'] }, { name: 'X', currency: 'EUR', countries: [] }, { name: 'X', currency: 'EUR', countries: ['XX'], extra: 1 }, { name: 'X', countries: ['XX'] }]) {
      assertAdminError(await admin('PUT', '/admin/v1/regions/reg_x', payload), 400, 'INVALID_REQUEST');
    }
    assertAdminError(await admin('PUT', '/admin/v1/regions/Bad-Id', { name: 'X', currency: 'EUR', countries: ['XX'] }), 400, 'INVALID_REQUEST');
    assert.deepEqual(await regions(), before);
  });
});

describe('admin imports', () => {
  const testApp = useTestApp(withAdmin({ catalog: PRODUCTS }, { ADMIN_IMPORT_MAX_BYTES: '4096' }));
  const post = (payload: string, query = '') => postImport(testApp, payload, query);

  it('imports a catalog file on the CLI path (a job whose report is the import\'s), served at once, audited with its last transaction', async () => {
    const file = catalog([product('olive-oil', { variants: [variant('OIL', { prices: [{ currency: 'EUR', amount: 1700 }] })] }), product('fresh-figs')], REGIONS);
    const job = await importOverHttp(testApp, file, '?unpublish_missing=true');
    assert.equal(job.status, 'succeeded', JSON.stringify(job));
    const { report } = job;
    assert.deepEqual(report.products, { created: 1, updated: 1 });
    assert.deepEqual(report.unpublished, ['honey']);
    assert.equal(typeof report.catalog_version, 'number');
    assert.equal((await testApp.app.inject({ url: '/public/v1/products/fresh-figs' })).statusCode, 200);
    assert.equal((await testApp.app.inject({ url: '/public/v1/products/honey' })).statusCode, 404);
    const audit = await adminClient(testApp)('GET', '/admin/v1/audit?limit=1');
    assert.deepEqual([audit.data.entries[0].action, audit.data.entries[0].target_type, audit.data.entries[0].version_after], ['import', 'catalog', report.catalog_version]);
  });

  it('fails the job of an invalid file (with the problems), refuses a body over ADMIN_IMPORT_MAX_BYTES (413), and writes nothing', async () => {
    const products = async () => testApp.store.db.selectFrom('products').select(['handle', 'status', 'version']).orderBy('handle').execute();
    const before = await products();
    const invalid = await importOverHttp(testApp, { version: 1, regions: REGIONS, products: [{ handle: 'Bad Handle' }] });
    assert.deepEqual([invalid.status, invalid.error.code, invalid.report], ['failed', 'INVALID_REQUEST', null]);
    assert.ok(invalid.error.details.problems.length > 0);
    assert.equal(invalid.error.details.problem_count, invalid.error.details.problems.length);
    assert.ok(invalid.error.details.problems.every((problem: any) => problem.path.startsWith('$')));
    const truncated = await importOverHttp(testApp, '{"version": 1,');
    assert.deepEqual([truncated.status, truncated.error.code], ['failed', 'INVALID_REQUEST']);
    assertAdminError(await post(JSON.stringify(catalog([product('olive-oil', { title: 'x'.repeat(5000) })]))), 413, 'PAYLOAD_TOO_LARGE');
    assertAdminError(await post('{}', '?unpublish_missing=perhaps'), 400, 'INVALID_REQUEST');
    assert.deepEqual(await products(), before);
  });

  it('fails the job of a file pricing a variant in a currency none of its regions sells in (naming it), and writes nothing', async () => {
    const before = await testApp.store.db.selectFrom('prices').select(['currency', 'amount']).orderBy(['currency', 'amount']).execute();
    const file = catalog([product('olive-oil', { variants: [variant('OIL', { prices: [{ currency: 'EUR', amount: 1650 }, { currency: 'JPY', amount: 2000 }] })] })], REGIONS.filter((region) => region.currency !== 'JPY'));
    const { error } = await importOverHttp(testApp, file);
    assert.equal(error.code, 'INVALID_REQUEST');
    assert.deepEqual(error.details.problems, [{ path: '$.products[0].variants[0].prices[1].currency', message: 'no region sells in JPY (they sell in EUR, GBP, USD)' }]);
    assert.deepEqual(await testApp.store.db.selectFrom('prices').select(['currency', 'amount']).orderBy(['currency', 'amount']).execute(), before);
  });

  it('refuses a bad query (400 naming it) before reading the body: the answer comes while the upload is unfinished', async () => {
    const port = await listeningPort(testApp.app);
    const socket = net.connect(port, '127.0.0.1');
    const head = [
      'POST /admin/v1/imports?unpublish_missing=perhaps HTTP/1.1',
      'Host: 127.0.0.1',
      `Authorization: Bearer ${ERP_TOKEN}`,
      'Content-Type: application/json',
      'Content-Length: 4000',
    ];
    // A tenth of the announced body, and no more: the server can only answer the query.
    socket.write(`${head.join('\r\n')}\r\n\r\n{"version": 1, "regions": [`);
    const answer = await new Promise<string>((resolve, reject) => {
      let text = '';
      socket.on('error', reject);
      socket.on('close', () => resolve(text));
      socket.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const end = text.indexOf('\r\n\r\n');
        const length = Number(/content-length: *(\d+)/i.exec(text)?.[1]);
        if (end >= 0 && Buffer.byteLength(text.slice(end + 4)) >= length) resolve(text);
      });
    });
    socket.destroy();
    assert.match(answer, /^HTTP\/1\.1 400 /, answer);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4));
    assert.equal(body.error.code, 'INVALID_REQUEST');
    assert.match(body.error.message, /unpublish_missing/);
  });
});

describe('the audit trail', () => {
  const testApp = useTestApp(withAdmin({ catalog: PRODUCTS }));
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(testApp)(...args);

  it('pages newest first with next_cursor, visiting every entry once; filters by actor and target', async () => {
    for (let quantity = 1; quantity <= 7; quantity++) {
      assert.equal((await admin('POST', '/admin/v1/inventory', { rows: [{ sku: 'OIL', inventory_quantity: quantity }, { sku: 'HONEY', inventory_quantity: quantity }] })).statusCode, 200);
    }
    const seen: any[] = [];
    let cursor: string | null = null;
    do {
      // The seed's import steps are in the trail too, under the actor `seed`; this walks the token's own.
      const page: any = await admin('GET', `/admin/v1/audit?limit=3&target_type=variant${cursor ? `&cursor=${cursor}` : ''}`);
      assert.equal(page.statusCode, 200);
      assert.ok(page.data.entries.length <= 3);
      seen.push(...page.data.entries);
      cursor = page.data.next_cursor;
    } while (cursor);
    assert.equal(seen.length, 14);
    assert.equal(new Set(seen.map((entry) => entry.id)).size, 14);
    assert.deepEqual(seen.map((entry) => entry.changes.inventory_quantity), [7, 7, 6, 6, 5, 5, 4, 4, 3, 3, 2, 2, 1, 1]);
    assert.deepEqual(seen.slice(0, 2).map((entry) => entry.changes.sku), ['HONEY', 'OIL'], 'rows of one request, last row first');

    const oil = await testApp.variantId('OIL');
    const filtered = await admin('GET', `/admin/v1/audit?target_id=${oil}&actor=erp&limit=100`);
    assert.equal(filtered.data.entries.length, 7);
    assert.equal(filtered.data.next_cursor, null);
    assert.deepEqual((await admin('GET', '/admin/v1/audit?actor=pim')).data.entries, []);
  });

  it('refuses a bad limit, an edited cursor or an unknown parameter (400)', async () => {
    for (const query of ['limit=0', 'limit=101', 'limit=1.5', 'cursor=not-a-cursor', 'target_type=cart', 'colour=red']) {
      assertAdminError(await admin('GET', `/admin/v1/audit?${query}`), 400, 'INVALID_REQUEST');
    }
  });
});
