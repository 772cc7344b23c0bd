import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { catalog, category, collection, product, variant } from '../support/catalog-builder.js';
import { adminClient, assertAdminError, withAdmin } from '../support/admin.js';
import { useTestApp } from '../support/test-app.js';

/** The admin API writes and shows a product's categories, collection, tags and images, as a catalog file does. */
describe('admin products: taxonomy', () => {
  const testApp = useTestApp(
    withAdmin({
      catalog: {
        ...catalog([product('honey', { variants: [variant('HONEY')], categories: ['pantry'], tags: ['organic'] })]),
        categories: [category('pantry', { titleIt: 'Dispensa' }), category('sweets', { parent: 'pantry' })],
        collections: [collection('classics')],
      },
    }),
  );
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(testApp)(...args);
  const served = async (handle: string) => JSON.parse((await testApp.app.inject({ url: `/public/v1/products/${handle}?locale=it` })).body).product;
  const image = { url: 'https://img.example/jam.jpg', alt: 'A jar of jam' };

  it('PUT writes them, GET shows them, and the public catalog serves them at once', async () => {
    const body = { status: 'published', weighted: false, translations: { en: { title: 'Jam' } }, options: [], variants: [variant('JAM')] };
    const put = await admin('PUT', '/admin/v1/products/jam', { ...body, categories: ['sweets'], collection: 'classics', tags: ['gift'], images: [image] });
    assert.equal(put.statusCode, 201, put.body);
    const stored = (await admin('GET', '/admin/v1/products/jam')).json().product;
    assert.deepEqual([stored.categories, stored.collection, stored.tags, stored.images], [['sweets'], 'classics', ['gift'], [image]]);
    const product = await served('jam');
    assert.deepEqual(product.categories, [{ handle: 'sweets', title: 'sweets' }]);
    assert.deepEqual(product.collection, { handle: 'classics', title: 'classics' });
    assert.deepEqual([product.tags, product.images], [['gift'], [image]]);
    const inPantry = JSON.parse((await testApp.app.inject({ url: '/public/v1/products?category=pantry' })).body);
    assert.deepEqual(inPantry.products.map((p: { handle: string }) => p.handle).sort(), ['honey', 'jam']);

    // A PUT replaces the product whole: what it leaves out is emptied.
    await admin('PUT', '/admin/v1/products/jam', body);
    const replaced = await served('jam');
    assert.deepEqual([replaced.categories, replaced.collection, replaced.tags, replaced.images], [[], null, [], []]);
  });

  it('PATCH replaces each given field whole and leaves the others', async () => {
    const patched = await admin('PATCH', '/admin/v1/products/honey', { tags: ['gift', 'organic'], collection: 'classics' });
    assert.equal(patched.statusCode, 200, patched.body);
    const product = await served('honey');
    assert.deepEqual(product.categories, [{ handle: 'pantry', title: 'Dispensa' }]);
    assert.deepEqual(product.tags, ['gift', 'organic']);
    assert.deepEqual(product.collection, { handle: 'classics', title: 'classics' });
    await admin('PATCH', '/admin/v1/products/honey', { collection: null, categories: [] });
    const emptied = await served('honey');
    assert.deepEqual([emptied.categories, emptied.collection, emptied.tags], [[], null, ['gift', 'organic']]);
  });

  it('400 naming each unknown category or collection, writing nothing', async () => {
    const before = (await admin('GET', '/admin/v1/products/honey')).json().product;
    const error = assertAdminError(await admin('PATCH', '/admin/v1/products/honey', { categories: ['pantry', 'nowhere'], collection: 'winter' }), 400, 'INVALID_REQUEST');
    assert.match(error.message, /\$\.categories\[1\] unknown category "nowhere"/);
    assert.match(error.message, /\$\.collection unknown collection "winter"/);
    const refusedPut = await admin('PUT', '/admin/v1/products/honey', { status: 'published', weighted: false, translations: { en: { title: 'Honey' } }, options: [], variants: [variant('HONEY')], categories: ['nowhere'] });
    assertAdminError(refusedPut, 400, 'INVALID_REQUEST');
    assert.deepEqual((await admin('GET', '/admin/v1/products/honey')).json().product, before);
  });
});
