import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { CatalogFile } from '../../src/catalog/file/catalog-file-schema.js';
import { CatalogFileInvalid, importCatalogFile } from '../../src/catalog/store/import-catalog-file.js';
import { importCatalog } from '../../src/catalog/store/import-catalog.js';
import { getOk } from '../support/catalog-assertions.js';
import { catalog, category, collection, day, product, REGIONS, tempDir, type TempDir } from '../support/catalog-builder.js';
import { dumpCatalog } from '../support/catalog-store.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { CatalogWriter } from '../../src/catalog/store/catalog-writer.js';

const IMAGE = (name: string) => `https://images.vetrina.example/products/${name}.jpg`;

const FIRST: CatalogFile = {
  ...catalog([
    product('spaghetti', {
      created_at: day(3),
      categories: ['dried-pasta', 'gifts'],
      collection: 'classics',
      tags: ['organic', 'bronze-cut'],
      images: [{ url: IMAGE('spaghetti-pack'), alt: 'A pack of spaghetti' }, { url: IMAGE('spaghetti-plate') }],
    }),
    product('gift-box', { created_at: day(2), categories: ['gifts'], collection: 'classics' }),
    product('plain', { created_at: day(1) }),
  ]),
  categories: [category('pantry', { titleIt: 'Dispensa' }), category('pasta', { parent: 'pantry' }), category('dried-pasta', { parent: 'pasta', titleIt: 'Pasta secca' }), category('gifts')],
  collections: [collection('classics', { titleIt: 'Classici' })],
};

/** Lists neither `pasta`, `gifts` nor `classics`; retitles `pantry` and moves `dried-pasta` up to it; refiles `spaghetti`. */
const SECOND: CatalogFile = {
  ...catalog([
    product('spaghetti', {
      created_at: day(3),
      categories: ['dried-pasta', 'pantry'],
      tags: ['organic'],
      images: [{ url: IMAGE('spaghetti-new'), alt: 'Spaghetti, new pack' }],
    }),
  ]),
  categories: [
    { handle: 'pantry', titles: { en: 'Larder', it: 'La dispensa' } },
    category('dried-pasta', { parent: 'pantry', titleIt: 'Pasta secca' }),
    category('fresh-pasta', { parent: 'pantry' }),
  ],
  collections: [collection('summer')],
};

describe('the taxonomy through the importer: served on every product answer, replaced per product on re-import, kept per category', () => {
  let testApp: TestApp;
  let dir: TempDir;

  before(async () => {
    dir = await tempDir();
    testApp = await startTestApp({ catalog: [] });
  });
  after(async () => {
    await testApp.close();
    await dir.remove();
  });

  const detail = async (handle: string, query = '') => (await getOk(testApp.client, `/public/v1/products/${handle}${query}`)).product;
  const importAndRefresh = async (file: CatalogFile) => {
    await importCatalog(new CatalogWriter(testApp.store.db), structuredClone(file));
    await testApp.app.catalogReadModel.refresh();
  };
  const storedCategories = async () =>
    (await testApp.store.db.selectFrom('categories').select(['handle', 'parent_handle', 'titles']).orderBy('handle').execute()).map((row) => ({
      ...row,
      titles: JSON.parse(row.titles) as unknown,
    }));

  it('200 GET /public/v1/products/{handle} with the categories and collection titled in the locale, the tags and the images', async () => {
    await importAndRefresh(FIRST);
    const spaghetti = await detail('spaghetti');
    assert.deepEqual(spaghetti.categories, [
      { handle: 'dried-pasta', title: 'dried pasta' },
      { handle: 'gifts', title: 'gifts' },
    ]);
    assert.deepEqual(spaghetti.collection, { handle: 'classics', title: 'classics' });
    assert.deepEqual(spaghetti.tags, ['organic', 'bronze-cut']);
    assert.deepEqual(spaghetti.images, [
      { url: IMAGE('spaghetti-pack'), alt: 'A pack of spaghetti' },
      { url: IMAGE('spaghetti-plate'), alt: null },
    ]);

    // Italian titles where the file gives them, English otherwise.
    const inItalian = await detail('spaghetti', '?locale=it');
    assert.deepEqual(inItalian.categories, [
      { handle: 'dried-pasta', title: 'Pasta secca' },
      { handle: 'gifts', title: 'gifts' },
    ]);
    assert.deepEqual(inItalian.collection, { handle: 'classics', title: 'Classici' });
  });

  it('200 with empty taxonomy fields for a product the file does not file, and the same fields in the list as in the detail', async () => {
    const plain = await detail('plain');
    assert.deepEqual([plain.categories, plain.collection, plain.tags, plain.images], [[], null, [], []]);
    const list = await getOk(testApp.client, '/public/v1/products');
    assert.deepEqual(list.products, [await detail('spaghetti'), await detail('gift-box'), plain]);
  });

  it("200 after a re-import: the product's categories, collection, tags and images are the new file's", async () => {
    await importAndRefresh(SECOND);
    const spaghetti = await detail('spaghetti', '?locale=it');
    assert.deepEqual(spaghetti.categories, [
      { handle: 'dried-pasta', title: 'Pasta secca' },
      { handle: 'pantry', title: 'La dispensa' },
    ]);
    assert.equal(spaghetti.collection, null);
    assert.deepEqual(spaghetti.tags, ['organic']);
    assert.deepEqual(spaghetti.images, [{ url: IMAGE('spaghetti-new'), alt: 'Spaghetti, new pack' }]);
  });

  it('keeps the categories and collections the new file does not list, and takes the titles and parents of those it lists', async () => {
    // `gift-box` is not in the second file either: it still names `gifts` and `classics`, with their titles.
    const giftBox = await detail('gift-box', '?locale=it');
    assert.deepEqual(giftBox.categories, [{ handle: 'gifts', title: 'gifts' }]);
    assert.deepEqual(giftBox.collection, { handle: 'classics', title: 'Classici' });
    assert.deepEqual(await storedCategories(), [
      { handle: 'dried-pasta', parent_handle: 'pantry', titles: { en: 'dried pasta', it: 'Pasta secca' } },
      { handle: 'fresh-pasta', parent_handle: 'pantry', titles: { en: 'fresh pasta' } },
      { handle: 'gifts', parent_handle: null, titles: { en: 'gifts' } },
      { handle: 'pantry', parent_handle: null, titles: { en: 'Larder', it: 'La dispensa' } },
      { handle: 'pasta', parent_handle: 'pantry', titles: { en: 'pasta' } },
    ]);
    const collections = await testApp.store.db.selectFrom('collections').select('handle').orderBy('handle').execute();
    assert.deepEqual(collections.map((row) => row.handle), ['classics', 'summer']);
  });

  it('200 for a streamed file that declares its taxonomy after its products: the products are served with it', async () => {
    const written = path.join(dir.path, 'products-first.json');
    await writeFile(
      written,
      JSON.stringify({
        products: [product('penne', { created_at: day(4), categories: ['short-pasta'], collection: 'weeknight' })],
        version: 1,
        regions: REGIONS,
        categories: [category('short-pasta', { titleIt: 'Pasta corta' })],
        collections: [collection('weeknight')],
      }),
    );
    await importCatalogFile(new CatalogWriter(testApp.store.db), written);
    await testApp.app.catalogReadModel.refresh();
    const penne = await detail('penne', '?locale=it');
    assert.deepEqual(penne.categories, [{ handle: 'short-pasta', title: 'Pasta corta' }]);
    assert.deepEqual(penne.collection, { handle: 'weeknight', title: 'weeknight' });
  });

  it('writes nothing, taxonomy included, for a file with an unknown category', async () => {
    const before = await dumpCatalog(testApp.store.db);
    const file = await dir.writeJson('unknown-category.json', {
      ...catalog([product('penne', { categories: ['short-pasta', 'long-pasta'] })]),
      categories: [category('short-pasta', { titleIt: 'Cambiata' })],
    });
    await assert.rejects(importCatalogFile(new CatalogWriter(testApp.store.db), file), (error: unknown) => {
      assert.ok(error instanceof CatalogFileInvalid);
      assert.deepEqual(error.problems, [{ path: '$.products[0].categories[1]', message: 'unknown category "long-pasta" (not in $.categories)' }]);
      return true;
    });
    assert.deepEqual(await dumpCatalog(testApp.store.db), before);
  });
});
