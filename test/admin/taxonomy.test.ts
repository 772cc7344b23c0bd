import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MAX_CATEGORY_DEPTH } from '../../src/catalog/model/taxonomy.js';
import { catalog, category, collection, product, variant } from '../support/catalog-builder.js';
import { ERP_TOKEN, adminClient, assertAdminError, withAdmin } from '../support/admin.js';
import { useTestApp } from '../support/test-app.js';

/** Categories and collections through the admin API: the tree rules of an import, served by the public catalog at once. */
describe('admin categories and collections', () => {
  const testApp = useTestApp(
    withAdmin({
      catalog: {
        ...catalog([
          product('honey', { variants: [variant('HONEY')], categories: ['sweets'], collection: 'classics' }),
          product('olive-oil', { variants: [variant('OIL')], categories: ['oils'] }),
        ]),
        categories: [category('pantry', { titleIt: 'Dispensa' }), category('oils', { parent: 'pantry' }), category('sweets', { parent: 'pantry' })],
        collections: [collection('classics'), collection('summer')],
      },
    }),
  );
  const admin = (...args: Parameters<ReturnType<typeof adminClient>>) => adminClient(testApp)(...args);
  const remove = (path: string) => testApp.app.inject({ method: 'DELETE', url: `/admin/v1/${path}`, headers: { authorization: `Bearer ${ERP_TOKEN}` } });
  const publicCategories = async () => (await testApp.app.inject({ url: '/public/v1/categories?locale=it' })).json().categories.map(({ handle, parent, title }: any) => ({ handle, parent, title }));
  const inCategory = async (handle: string) => (await testApp.app.inject({ url: `/public/v1/products?category=${handle}` })).json().products.map((p: { handle: string }) => p.handle);

  it('lists and reads categories and collections; an unknown one is 404', async () => {
    const categories = await admin('GET', '/admin/v1/categories');
    assert.equal(categories.statusCode, 200, categories.body);
    assert.deepEqual(categories.data.categories, [
      { handle: 'pantry', parent: null, titles: { en: 'pantry', it: 'Dispensa' } },
      { handle: 'oils', parent: 'pantry', titles: { en: 'oils' } },
      { handle: 'sweets', parent: 'pantry', titles: { en: 'sweets' } },
    ]);
    assert.deepEqual((await admin('GET', '/admin/v1/categories/oils')).data.category, { handle: 'oils', parent: 'pantry', titles: { en: 'oils' } });
    assert.deepEqual((await admin('GET', '/admin/v1/collections')).data.collections, [
      { handle: 'classics', titles: { en: 'classics' } },
      { handle: 'summer', titles: { en: 'summer' } },
    ]);
    assert.deepEqual((await admin('GET', '/admin/v1/collections/summer')).data.collection, { handle: 'summer', titles: { en: 'summer' } });
    assertAdminError(await admin('GET', '/admin/v1/categories/nowhere'), 404, 'NOT_FOUND');
    assertAdminError(await admin('GET', '/admin/v1/collections/nowhere'), 404, 'NOT_FOUND');
    assertAdminError(await admin('GET', '/admin/v1/categories/Not_A_Handle'), 400, 'INVALID_REQUEST');
  });

  it('creates (201), renames and re-parents (200) a category, served by the public catalog at once and audited', async () => {
    const created = await admin('PUT', '/admin/v1/categories/jams', { parent: 'sweets', titles: { en: 'Jams', it: 'Confetture' } });
    assert.equal(created.statusCode, 201, created.body);
    assert.deepEqual(created.data.category, { handle: 'jams', parent: 'sweets', titles: { en: 'Jams', it: 'Confetture' } });
    assert.deepEqual((await publicCategories()).at(-1), { handle: 'jams', parent: 'sweets', title: 'Confetture' });

    const renamed = await admin('PUT', '/admin/v1/categories/sweets', { parent: 'pantry', titles: { en: 'Sweets', it: 'Dolci' } });
    assert.equal(renamed.statusCode, 200, renamed.body);
    const honey = (await testApp.app.inject({ url: '/public/v1/products/honey?locale=it' })).json().product;
    assert.deepEqual(honey.categories, [{ handle: 'sweets', title: 'Dolci' }], 'a product names its category by the new title');

    assert.deepEqual(await inCategory('pantry'), ['honey', 'olive-oil']);
    const moved = await admin('PUT', '/admin/v1/categories/sweets', { titles: { en: 'Sweets' } });
    assert.equal(moved.statusCode, 200, moved.body);
    assert.equal(moved.data.category.parent, null, 'no parent: at the top');
    assert.deepEqual(await inCategory('pantry'), ['olive-oil'], 'the category filter follows the tree');
    assert.deepEqual(await inCategory('sweets'), ['honey']);

    const audit = await admin('GET', '/admin/v1/audit?target_type=category&limit=3');
    assert.deepEqual(
      audit.data.entries.map((entry: any) => [entry.action, entry.target_id, entry.actor]),
      [['replace', 'sweets', 'erp'], ['replace', 'sweets', 'erp'], ['create', 'jams', 'erp']],
    );
    assert.deepEqual(audit.data.entries[0].changes, { parent: null, titles: { en: 'Sweets' } });
  });

  it('refuses an unknown parent, a cycle and a tree too deep (400 with details.problems), writing nothing', async () => {
    const before = await admin('GET', '/admin/v1/categories');
    const unknown = assertAdminError(await admin('PUT', '/admin/v1/categories/oils', { parent: 'nowhere', titles: { en: 'Oils' } }), 400, 'INVALID_REQUEST');
    assert.equal(unknown.details.problems[0].path, 'body.parent');
    const cycle = assertAdminError(await admin('PUT', '/admin/v1/categories/pantry', { parent: 'oils', titles: { en: 'Pantry' } }), 400, 'INVALID_REQUEST');
    assert.match(cycle.message, /cycle/);
    const self = assertAdminError(await admin('PUT', '/admin/v1/categories/pantry', { parent: 'pantry', titles: { en: 'Pantry' } }), 400, 'INVALID_REQUEST');
    assert.match(self.message, /cycle/);
    // A chain as deep as the tree may be, then one more level below it.
    let parent = 'oils';
    for (let level = 2; level <= MAX_CATEGORY_DEPTH; level++) {
      const handle = `level-${level}`;
      assert.equal((await admin('PUT', `/admin/v1/categories/${handle}`, { parent, titles: { en: handle } })).statusCode, 201);
      parent = handle;
    }
    const deep = assertAdminError(await admin('PUT', '/admin/v1/categories/too-deep', { parent, titles: { en: 'Too deep' } }), 400, 'INVALID_REQUEST');
    assert.match(deep.message, new RegExp(`more than ${MAX_CATEGORY_DEPTH} levels`));
    // Re-parenting a category pushes the ones below it down: refused the same way.
    const pushed = assertAdminError(await admin('PUT', '/admin/v1/categories/oils', { parent: 'jams', titles: { en: 'oils' } }), 400, 'INVALID_REQUEST');
    assert.match(pushed.message, /stored, below "oils"/);
    assertAdminError(await admin('PUT', '/admin/v1/categories/oils', { parent: 'pantry', titles: {} }), 400, 'INVALID_REQUEST');
    assertAdminError(await admin('PUT', '/admin/v1/categories/oils', { parent: 'pantry', titles: { en: 'Oils' }, position: 1 }), 400, 'INVALID_REQUEST');
    for (let level = MAX_CATEGORY_DEPTH; level >= 2; level--) assert.equal((await remove(`categories/level-${level}`)).statusCode, 204);
    assert.deepEqual((await admin('GET', '/admin/v1/categories')).data.categories, before.data.categories);
  });

  it('refuses to delete a category products are filed in or categories are below (409), deletes an unused one (204)', async () => {
    const used = assertAdminError(await remove('categories/oils'), 409, 'CONFLICT');
    assert.match(used.message, /GET \/admin\/v1\/products\?category=oils/);
    const parent = assertAdminError(await remove('categories/pantry'), 409, 'CONFLICT');
    assert.match(parent.message, /below it/);
    assert.equal((await admin('PATCH', '/admin/v1/products/olive-oil', { categories: [] })).statusCode, 200);
    assert.equal((await remove('categories/oils')).statusCode, 204);
    assert.ok(!(await publicCategories()).some((entry: { handle: string }) => entry.handle === 'oils'), 'no longer served');
    assertAdminError(await remove('categories/oils'), 404, 'NOT_FOUND');
    assertAdminError(await admin('PATCH', '/admin/v1/products/olive-oil', { categories: ['oils'] }), 400, 'INVALID_REQUEST');
    assert.equal((await admin('GET', '/admin/v1/audit?target_type=category&target_id=oils&limit=1')).data.entries[0].action, 'delete');
  });

  it('creates, renames and deletes collections; one products are in is refused (409)', async () => {
    assert.equal((await admin('PUT', '/admin/v1/collections/gifts', { titles: { en: 'Gifts', it: 'Regali' } })).statusCode, 201);
    const renamed = await admin('PUT', '/admin/v1/collections/classics', { titles: { en: 'Classics', it: 'Classici' } });
    assert.equal(renamed.statusCode, 200, renamed.body);
    const honey = (await testApp.app.inject({ url: '/public/v1/products/honey?locale=it' })).json().product;
    assert.deepEqual(honey.collection, { handle: 'classics', title: 'Classici' });
    const collections = (await testApp.app.inject({ url: '/public/v1/collections' })).json().collections.map((entry: { handle: string }) => entry.handle);
    assert.deepEqual(collections, ['classics', 'summer', 'gifts']);
    const used = assertAdminError(await remove('collections/classics'), 409, 'CONFLICT');
    assert.match(used.message, /collection=classics/);
    assert.equal((await remove('collections/gifts')).statusCode, 204);
    assertAdminError(await remove('collections/gifts'), 404, 'NOT_FOUND');
    assertAdminError(await admin('PUT', '/admin/v1/collections/gifts', { titles: { it: 'Regali' } }), 400, 'INVALID_REQUEST');
    assert.deepEqual(
      (await admin('GET', '/admin/v1/audit?target_type=collection&limit=3')).data.entries.map((entry: any) => [entry.action, entry.target_id]),
      [['delete', 'gifts'], ['replace', 'classics'], ['create', 'gifts']],
    );
  });
});
