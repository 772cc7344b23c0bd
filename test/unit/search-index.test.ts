import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Locale } from '../../src/catalog/model/locales.js';
import type { CatalogProduct } from '../../src/catalog/read-model/product.js';
import { sameClassification, sameSearchFields, SearchIndex, WHOLE_WORDS_IN_TITLE, type FacetKind } from '../../src/catalog/read-model/search-index.js';
import { words } from '../../src/catalog/read-model/text.js';
import { catalogProduct } from '../support/catalog-product.js';

/** The slots of the products in a facet. */
function facet(index: SearchIndex, kind: FacetKind, value: string): Set<number> {
  const slots = new Set<number>();
  index.forEachInFacet(kind, value, (slot) => slots.add(slot));
  return slots;
}

function indexOf(...products: CatalogProduct[]): SearchIndex {
  const index = new SearchIndex();
  for (const product of products) index.add(product);
  return index;
}

/** What a query finds, by product id: `whole` when every query word is a whole word of the title in the locale, else `partial`. */
function found(index: SearchIndex, query: string, locale: Locale = 'en'): Record<string, 'whole' | 'partial'> {
  const { count, bySlot } = index.match(words(query), locale);
  const result: Record<string, 'whole' | 'partial'> = {};
  bySlot.forEach((match, slot) => {
    if (match > 0) result[index.productAt(slot)!.id] = match === WHOLE_WORDS_IN_TITLE ? 'whole' : 'partial';
  });
  assert.equal(count, Object.keys(result).length, 'count is the number of products marked');
  return result;
}

const oliveOil = catalogProduct('olive-oil', { title: 'Olive Oil', titleIt: "Olio d'oliva" });
const soap = catalogProduct('olive-oil-soap', { title: 'Olive Oil Soap' });
const olives = catalogProduct('olives', { title: 'Green Olives' });
const espresso = catalogProduct('espresso', { title: 'Caffè Espresso' });

describe('SearchIndex: matching', () => {
  it('an empty index matches nothing, and an empty query matches nothing in a full one', () => {
    const empty = new SearchIndex();
    assert.equal(empty.slotCount, 0);
    assert.deepEqual(found(empty, 'olive'), {});
    assert.deepEqual(found(indexOf(oliveOil, soap), ''), {});
  });

  it('finds every product having all the query words, whole title words marked apart from prefixes and handle words', () => {
    const index = indexOf(oliveOil, soap, olives, espresso);
    assert.deepEqual(found(index, 'olive oil'), { 'olive-oil': 'whole', 'olive-oil-soap': 'whole' });
    assert.deepEqual(found(index, 'olive soap'), { 'olive-oil-soap': 'whole' }, 'every word must match');
    assert.deepEqual(found(index, 'oliv'), { 'olive-oil': 'partial', 'olive-oil-soap': 'partial', olives: 'partial' }, 'a prefix of a word');
    assert.deepEqual(found(index, 'tea'), {});
  });

  it('searches the handle as well as the title; a word of the handle alone is a partial match', () => {
    const bottle = catalogProduct('evo-bottle', { title: 'Olive Oil' });
    assert.deepEqual(found(indexOf(bottle, soap), 'bottle'), { 'evo-bottle': 'partial' });
    assert.deepEqual(found(indexOf(bottle, soap), 'evo olive'), { 'evo-bottle': 'partial' });
  });

  it('ties: products with the same title are all found, each whole', () => {
    const twin = catalogProduct('olive-oil-2', { title: 'Olive Oil' });
    assert.deepEqual(found(indexOf(oliveOil, twin), 'oil olive'), { 'olive-oil': 'whole', 'olive-oil-2': 'whole' });
  });

  it('folds case and accents in titles and handles, so a plain query finds them', () => {
    const brulee = catalogProduct('creme-brulee', { title: 'CAFFÈ Crème Brûlée' });
    const muesli = catalogProduct('muesli', { title: 'Müsli' });
    const index = indexOf(brulee, muesli, espresso);
    assert.deepEqual(found(index, 'caffe creme brulee'), { 'creme-brulee': 'whole' });
    assert.deepEqual(found(index, 'Caffè'), { 'creme-brulee': 'whole', espresso: 'whole' });
    assert.deepEqual(found(index, 'musli'), { muesli: 'whole' });
  });

  it('searches the title in the locale, falling back to the default locale where a product has no translation', () => {
    const index = indexOf(oliveOil, olives);
    assert.deepEqual(found(index, 'olio', 'it'), { 'olive-oil': 'whole' });
    assert.deepEqual(found(index, 'olio', 'en'), {});
    assert.deepEqual(found(index, 'green', 'it'), { olives: 'whole' });
    // The handle is searched in every locale; the English title of a translated product is not.
    assert.deepEqual(found(index, 'oil', 'it'), { 'olive-oil': 'partial' });
  });
});

describe('SearchIndex: misspellings', () => {
  const honey = catalogProduct('honey', { title: 'Honey' });
  const long = catalogProduct('adverb', { title: 'Extraordinarily' });
  const index = indexOf(honey, espresso, long);

  it('under 5 letters a query word finds only the words it begins', () => {
    assert.deepEqual(found(index, 'hon'), { honey: 'partial' });
    assert.deepEqual(found(index, 'hny'), {});
    assert.deepEqual(found(index, 'hony'), {}, 'one edit from honey');
  });

  it('from 5 letters one edit, from 8 two: a fifth of the length, rounded; always a partial match', () => {
    assert.deepEqual(found(index, 'hovey'), { honey: 'partial' }, '5 letters, 1 edit');
    assert.deepEqual(found(index, 'hovez'), {}, '5 letters, 2 edits');
    assert.deepEqual(found(index, 'espreso'), { espresso: 'partial' }, '7 letters, 1 edit');
    assert.deepEqual(found(index, 'espreos'), {}, '7 letters, 2 edits');
    assert.deepEqual(found(index, 'espresos'), { espresso: 'partial' }, '8 letters, 2 edits');
  });

  it('never more than two edits, however long the word', () => {
    assert.deepEqual(found(index, 'axtraordinarilz'), { adverb: 'partial' }, '15 letters, 2 edits');
    assert.deepEqual(found(index, 'axtraordinarizz'), {}, '15 letters, 3 edits');
  });
});

describe('SearchIndex: adding, replacing and removing products', () => {
  it('a removed product is no longer found; the others with its words still are', () => {
    const index = indexOf(oliveOil, soap, olives);
    index.remove(soap);
    assert.deepEqual(found(index, 'olive oil'), { 'olive-oil': 'whole' });
    assert.deepEqual(found(index, 'soap'), {});
    assert.deepEqual(found(index, 'soaps'), {}, 'nor is its word found by a misspelling');
    assert.equal(index.slotOf(soap.id), undefined);
  });

  it('a word and a category of many products (kept as bitmaps past a 32nd of them) find the same products as rare ones, through removals and re-adds', () => {
    // 300 products with "olive" in the title, 20 of them with "rare" too: "olive" outgrows an array.
    const products = Array.from({ length: 300 }, (_, n) => catalogProduct(`p${n}`, { title: n % 15 === 0 ? `Olive rare ${n}` : `Olive ${n}`, categories: ['pantry'] }));
    const index = indexOf(...products);
    const expected = (predicate: (n: number) => boolean) => Object.fromEntries(products.flatMap((product, n) => (predicate(n) ? [[product.id, 'whole']] : [])));
    assert.deepEqual(found(index, 'olive'), expected(() => true));
    assert.deepEqual(found(index, 'olive rare'), expected((n) => n % 15 === 0));
    // Every other product removed, then a third of those added back: slots are reused.
    const removed = (n: number) => n % 2 === 1 && n % 3 !== 0;
    products.forEach((product, n) => n % 2 === 1 && index.remove(product));
    products.forEach((product, n) => n % 2 === 1 && n % 3 === 0 && index.add(product));
    assert.deepEqual(found(index, 'olive'), expected((n) => !removed(n)));
    assert.deepEqual(found(index, 'rare olive'), expected((n) => n % 15 === 0 && !removed(n)));
    // The category, as large, is kept alike.
    assert.deepEqual(facet(index, 'category', 'pantry'), new Set(products.flatMap((product, n) => (removed(n) ? [] : [index.slotOf(product.id)!]))));
    products.forEach((product, n) => !removed(n) && index.remove(product));
    assert.deepEqual(found(index, 'olive'), {});
  });

  it('refuses to add a product twice, or to remove or replace one it does not hold', () => {
    const index = indexOf(oliveOil);
    assert.throws(() => index.add(oliveOil), /already indexed/);
    assert.throws(() => index.remove(soap), /not indexed/);
    assert.throws(() => index.replace(soap), /not indexed/);
  });

  it('reuses a removed product\'s slot; every change moves the slot\'s revision to one never given before', () => {
    const index = indexOf(oliveOil, soap);
    const slot = index.slotOf(soap.id)!;
    const revisions = [index.revisionAt(slot)];
    index.remove(soap);
    assert.equal(index.productAt(slot), undefined);
    revisions.push(index.revisionAt(slot));
    index.add(olives);
    assert.equal(index.slotOf(olives.id), slot);
    assert.equal(index.slotCount, 2, 'no slot was added');
    revisions.push(index.revisionAt(slot));
    index.replace({ ...olives, createdAtMs: Date.UTC(2025, 5, 1) });
    revisions.push(index.revisionAt(slot));
    assert.equal(new Set([...revisions, index.revisionAt(index.slotOf(oliveOil.id)!)]).size, 5);
    assert.equal(index.revisionAt(99), 0, 'no revision for a slot never used');
  });

  it('replace points the slot at the newer state: what it serves, its creation time and its facets', () => {
    const index = indexOf(catalogProduct('figs', { title: 'Dried Figs', categories: ['fruit'], tags: ['dried'] }));
    const slot = index.slotOf('figs')!;
    const repriced = catalogProduct('figs', { title: 'Dried Figs', categories: ['snacks'], collection: 'autumn', tags: ['dried'], createdAtMs: Date.UTC(2025, 2, 1) });
    index.replace(repriced);
    assert.equal(index.productAt(slot), repriced);
    assert.equal(index.createdAtMs(slot), Date.UTC(2025, 2, 1));
    assert.deepEqual(facet(index, 'category', 'fruit'), new Set());
    assert.deepEqual(facet(index, 'category', 'snacks'), new Set([slot]));
    assert.deepEqual(facet(index, 'collection', 'autumn'), new Set([slot]));
    assert.deepEqual(facet(index, 'tag', 'dried'), new Set([slot]));
    assert.deepEqual(found(index, 'figs'), { figs: 'whole' });
  });

  it('facets: the slots of the products in each category, collection and tag; none once the last leaves', () => {
    const figs = catalogProduct('figs', { categories: ['fruit', 'snacks'], collection: 'autumn', tags: ['dried', 'organic'] });
    const dates = catalogProduct('dates', { categories: ['fruit'], tags: ['dried'] });
    const index = indexOf(figs, dates);
    const [f, d] = [index.slotOf('figs')!, index.slotOf('dates')!];
    assert.deepEqual(facet(index, 'category', 'fruit'), new Set([f, d]));
    assert.deepEqual(facet(index, 'category', 'snacks'), new Set([f]));
    assert.deepEqual(facet(index, 'tag', 'dried'), new Set([f, d]));
    assert.deepEqual(facet(index, 'collection', 'autumn'), new Set([f]));
    assert.deepEqual(facet(index, 'collection', 'fruit'), new Set(), 'kinds are apart');
    index.remove(figs);
    assert.deepEqual(facet(index, 'category', 'fruit'), new Set([d]));
    assert.deepEqual(facet(index, 'category', 'snacks'), new Set());
    assert.deepEqual(facet(index, 'tag', 'organic'), new Set());
  });

  it('tells which changes need re-indexing (searched fields) and which move facets (classification)', () => {
    assert.equal(sameSearchFields(oliveOil, { ...oliveOil, variants: [] }), true);
    assert.equal(sameSearchFields(oliveOil, catalogProduct('olive-oil', { title: 'Olive Oil' })), false, 'the Italian title went');
    assert.equal(sameSearchFields(oliveOil, { ...oliveOil, handle: 'evo' }), false);
    assert.equal(sameClassification(oliveOil, { ...oliveOil, texts: { en: { title: 'Oil', description: null } } }), true);
    assert.equal(sameClassification(oliveOil, { ...oliveOil, tags: ['new'] }), false);
    assert.equal(sameClassification(oliveOil, { ...oliveOil, collection: 'pantry' }), false);
  });
});
