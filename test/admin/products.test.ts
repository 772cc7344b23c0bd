import assert from 'node:assert/strict';
import { beforeEach, describe, it } from 'node:test';
import { product, skuVariants, variant } from '../support/catalog-builder.js';
import { ERP_TOKEN, adminClient, assertAdminError, withAdmin } from '../support/admin.js';
import { useTestApp } from '../support/test-app.js';

const BASE_PRODUCTS = [
  product('olive-oil', { ...skuVariants([variant('OIL-500'), variant('OIL-1000')]) }),
  product('honey', { variants: [variant('HONEY')] }),
];

/** A product body as PUT takes it (the catalog file's product without its handle). */
function body(fields: Record<string, unknown> = {}) {
  const { handle: _handle, created_at: _created, ...rest } = product('olive-oil', { ...skuVariants([variant('OIL-500'), variant('OIL-1000')]) });
  return { ...rest, ...fields };
}

describe('admin products', () => {
  const testApp = useTestApp(withAdmin({ catalog: BASE_PRODUCTS }));
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(testApp)(...args);
  const publicProduct = (handle: string) => testApp.app.inject({ url: `/public/v1/products/${handle}` });

  /** Everything an admin write could have changed, to show that a refused one changed nothing. */
  const storeState = async () => ({
    products: await testApp.store.db.selectFrom('products').selectAll().orderBy('handle').execute(),
    variants: await testApp.store.db.selectFrom('variants').selectAll().orderBy('sku').execute(),
    prices: await testApp.store.db.selectFrom('prices').selectAll().orderBy('variant_id').orderBy('currency').orderBy('region_id').execute(),
    texts: await testApp.store.db.selectFrom('product_translations').selectAll().orderBy('product_id').orderBy('locale').execute(),
    audit: await testApp.store.db.selectFrom('admin_audit').select(['seq', 'position']).execute(),
  });

  beforeEach(async () => {
    // Every test starts from the same two products.
    for (const file of BASE_PRODUCTS) {
      const { handle, ...rest } = file;
      const response = await admin('PUT', `/admin/v1/products/${handle}`, rest);
      assert.ok([200, 201].includes(response.statusCode), response.body);
    }
  });

  it('GET answers the product in the file shape with ids, versions and a strong ETag, drafts too', async () => {
    await admin('PATCH', '/admin/v1/products/honey', { status: 'draft' });
    const response = await admin('GET', '/admin/v1/products/honey');
    assert.equal(response.statusCode, 200);
    assert.equal(response.headers.etag, `"${response.data.product.version}"`);
    assert.equal(response.data.product.status, 'draft');
    assert.deepEqual(response.data.product.variants.map((v: any) => [v.sku, typeof v.id, typeof v.version]), [['HONEY', 'string', 'number']]);
    assertAdminError(await admin('GET', '/admin/v1/products/no-such-product'), 404, 'NOT_FOUND');
  });

  it('PUT creates (201) and replaces (200): variants keep their ids by SKU, unlisted ones are removed, the public read shows it at once', async () => {
    const created = await admin('PUT', '/admin/v1/products/fresh-pasta', body({ ...skuVariants([variant('PASTA-1', { prices: [{ currency: 'EUR', amount: 450 }] })]) }));
    assert.equal(created.statusCode, 201, created.body);
    assert.equal(created.headers.etag, '"1"');
    assert.equal((await publicProduct('fresh-pasta')).json().product.variants[0].price.amount, 4.5);

    const before = await admin('GET', '/admin/v1/products/olive-oil');
    const ids = Object.fromEntries(before.data.product.variants.map((v: any) => [v.sku, v.id]));
    const replaced = await admin(
      'PUT',
      '/admin/v1/products/olive-oil',
      body({ ...skuVariants([variant('OIL-1000', { prices: [{ currency: 'EUR', amount: 2100 }] }), variant('OIL-5000')]), translations: { en: { title: 'Olive oil, new' } } }),
      { 'if-match': before.headers.etag as string },
    );
    assert.equal(replaced.statusCode, 200, replaced.body);
    assert.equal(replaced.data.product.version, before.data.product.version + 1);
    const variants = replaced.data.product.variants;
    assert.deepEqual(variants.map((v: any) => v.sku), ['OIL-1000', 'OIL-5000']);
    assert.equal(variants[0].id, ids['OIL-1000'], 'a kept SKU keeps its id');
    const served = (await publicProduct('olive-oil')).json().product;
    assert.equal(served.title, 'Olive oil, new');
    assert.deepEqual(served.variants.map((v: any) => [v.id, v.price?.amount]), [[ids['OIL-1000'], 21], [variants[1].id, 10]]);
  });

  it('PUT refuses, writing nothing: a body handle other than the path\'s, schema violations, product rules', async () => {
    const state = await storeState();
    const cases: [string, unknown, RegExp][] = [
      ['a handle other than the path', body({ handle: 'honey' }), /body\.handle is honey/],
      ['an unknown field', body({ price: 1 }), /unknown field "price"/],
      ['a missing field', { ...body(), translations: undefined }, /missing the required field "translations"/],
      ['a wrong type', body({ weighted: 'no' }), /body\.weighted must be boolean/],
      ['no variants', body({ variants: [] }), /body\.variants must NOT have fewer than 1 items/],
      ['a negative price', body({ variants: [variant('OIL-500', { prices: [{ currency: 'EUR', amount: -1 }] })], options: [] }), /amount must be >= 0/],
      ['an unknown region', body({ variants: [variant('OIL-500', { prices: [{ currency: 'EUR', amount: 1, region: 'reg_mars' }] })], options: [] }), /unknown region "reg_mars"/],
      ['a region of another currency', body({ variants: [variant('OIL-500', { prices: [{ currency: 'USD', amount: 1, region: 'reg_it' }] })], options: [] }), /region "reg_it" uses EUR, not USD/],
      ['a currency no region sells in', body({ variants: [variant('OIL-500', { prices: [{ currency: 'ZZZ', amount: 1 }] })], options: [] }), /prices\[0\]\.currency no region sells in ZZZ/],
      ['a duplicate SKU', body({ ...skuVariants([variant('OIL-500'), variant('OIL-500')]) }), /duplicate/],
      ['option values that are not the product\'s', body({ options: [{ name: 'Size', values: ['S'] }], variants: [variant('OIL-500', { options: ['M'] })] }), /"M" is not a value of option "Size"/],
    ];
    for (const [what, payload, message] of cases) {
      const error = assertAdminError(await admin('PUT', '/admin/v1/products/olive-oil', payload), 400, 'INVALID_REQUEST');
      assert.match(error.message, message, what);
    }
    assertAdminError(await admin('PUT', '/admin/v1/products/Not_A_Handle', body()), 400, 'INVALID_REQUEST');
    assert.deepEqual(await storeState(), state);
  });

  it('PUT with a SKU of another product is 409 CONFLICT and moves nothing', async () => {
    const state = await storeState();
    const error = assertAdminError(await admin('PUT', '/admin/v1/products/olive-oil', body({ variants: [variant('HONEY')], options: [] })), 409, 'CONFLICT');
    assert.match(error.message, /SKU HONEY belongs to product honey/);
    assert.deepEqual(await storeState(), state);
  });

  it('PUT honours If-Match and If-None-Match: *', async () => {
    const state = await storeState();
    const stale = assertAdminError(await admin('PUT', '/admin/v1/products/olive-oil', body(), { 'if-match': '"99"' }), 412, 'PRECONDITION_FAILED');
    assert.equal(stale.details.current_version, (await admin('GET', '/admin/v1/products/olive-oil')).data.product.version);
    assertAdminError(await admin('PUT', '/admin/v1/products/olive-oil', body(), { 'if-none-match': '*' }), 412, 'PRECONDITION_FAILED');
    assertAdminError(await admin('PUT', '/admin/v1/products/not-there-yet', body(), { 'if-match': '*' }), 412, 'PRECONDITION_FAILED');
    assertAdminError(await admin('PUT', '/admin/v1/products/olive-oil', body(), { 'if-match': 'W/"1"' }), 400, 'INVALID_REQUEST');
    assert.deepEqual(await storeState(), state);
    const created = await admin('PUT', '/admin/v1/products/not-there-yet', body({ variants: [variant('NEW-SKU')], options: [] }), { 'if-none-match': '*' });
    assert.equal(created.statusCode, 201, created.body);
    assert.equal((await admin('PUT', '/admin/v1/products/olive-oil', body(), { 'if-match': '*' })).statusCode, 200);
  });

  it('PATCH to draft removes the product from public reads at once, published brings it back; texts and thumbnail change', async () => {
    assert.equal((await publicProduct('honey')).statusCode, 200);
    const drafted = await admin('PATCH', '/admin/v1/products/honey', { status: 'draft' });
    assert.equal(drafted.statusCode, 200, drafted.body);
    assert.equal((await publicProduct('honey')).statusCode, 404);
    assert.equal((await testApp.app.inject({ url: '/public/v1/products?q=honey' })).json().count, 0);

    const published = await admin('PATCH', '/admin/v1/products/honey', { status: 'published', translations: { it: { title: 'Miele' } }, thumbnail: 'https://img.example/honey.jpg' }, { 'if-match': drafted.headers.etag as string });
    assert.equal(published.statusCode, 200, published.body);
    assert.equal(published.headers.etag, `"${drafted.data.product.version + 1}"`);
    const servedIt = (await testApp.app.inject({ url: '/public/v1/products/honey?locale=it' })).json().product;
    assert.equal(servedIt.title, 'Miele');
    assert.equal(servedIt.thumbnail, 'https://img.example/honey.jpg');

    const removed = await admin('PATCH', '/admin/v1/products/honey', { translations: { it: null }, thumbnail: null });
    assert.deepEqual(Object.keys(removed.data.product.translations), ['en']);
    assert.equal((await testApp.app.inject({ url: '/public/v1/products/honey?locale=it' })).json().product.title, 'honey');
  });

  it('PATCH refuses, writing nothing: an empty body, unknown fields, bad values, removing the default text, a stale If-Match, an unknown product', async () => {
    const state = await storeState();
    const cases: [unknown, RegExp][] = [
      [{}, /body must set at least one field/],
      [{ title: 'x' }, /unknown field "title"/],
      [{ status: 'archived' }, /body\.status must be one of draft, published/],
      [{ translations: {} }, /body\.translations must set at least one field/],
      [{ translations: { fr: { title: 'Miel' } } }, /unknown field "fr"/],
      [{ translations: { en: { title: '' } } }, /title must NOT have fewer than 1 characters/],
      [{ translations: { en: null } }, /The en text cannot be removed/],
      [{ thumbnail: 'not a uri' }, /thumbnail/],
    ];
    for (const [payload, message] of cases) {
      const error = assertAdminError(await admin('PATCH', '/admin/v1/products/honey', payload), 400, 'INVALID_REQUEST');
      assert.match(error.message, message, JSON.stringify(payload));
    }
    assertAdminError(await admin('PATCH', '/admin/v1/products/honey', { status: 'draft' }, { 'if-match': '"99"' }), 412, 'PRECONDITION_FAILED');
    assertAdminError(await admin('PATCH', '/admin/v1/products/no-such-product', { status: 'draft' }), 404, 'NOT_FOUND');
    assert.deepEqual(await storeState(), state);
  });

  it('DELETE removes the product from public reads (204); If-Match honoured; 404 for an unknown one', async () => {
    const inject = (headers: Record<string, string> = {}) =>
      testApp.app.inject({ method: 'DELETE', url: '/admin/v1/products/honey', headers: { authorization: `Bearer ${ERP_TOKEN}`, ...headers } });
    assertAdminError(await inject({ 'if-match': '"99"' }), 412, 'PRECONDITION_FAILED');
    assert.equal((await publicProduct('honey')).statusCode, 200);
    const deleted = await inject({ 'if-match': '*' });
    assert.equal(deleted.statusCode, 204);
    assert.equal(deleted.body, '');
    assert.equal((await publicProduct('honey')).statusCode, 404);
    assertAdminError(await inject(), 404, 'NOT_FOUND');
    assertAdminError(await admin('GET', '/admin/v1/products/honey'), 404, 'NOT_FOUND');
  });

  it('audits every product write with the actor and the versions before and after', async () => {
    const before = (await admin('GET', '/admin/v1/products/honey')).data.product.version;
    await admin('PATCH', '/admin/v1/products/honey', { status: 'draft' });
    await testApp.app.inject({ method: 'DELETE', url: '/admin/v1/products/honey', headers: { authorization: `Bearer ${ERP_TOKEN}` } });
    const audit = await admin('GET', '/admin/v1/audit?target_type=product&target_id=honey&limit=2');
    assert.deepEqual(
      audit.data.entries.map((entry: any) => [entry.actor, entry.action, entry.version_before, entry.version_after]),
      [['erp', 'delete', before + 1, null], ['erp', 'update', before, before + 1]],
    );
    assert.deepEqual(audit.data.entries[1].changes, { status: 'draft' });
  });
});
