import SearchableMap from 'minisearch/SearchableMap';
import { LOCALES, type Locale } from '../model/locales.js';
import { textIn } from './product.js';
import type { CatalogProduct } from './product.js';
import { SlotBitmap } from './slot-bitmap.js';
import { words } from './text.js';

/** Title in the locale, falling back to the default locale, as it is served and searched. */
export function titleIn(product: CatalogProduct, locale: Locale): string {
  return textIn(product, locale).title;
}

/** Whether two states of a product are indexed alike (a price or stock change is not re-indexed). */
export function sameSearchFields(a: CatalogProduct, b: CatalogProduct): boolean {
  return a.handle === b.handle && LOCALES.every((locale) => titleIn(a, locale) === titleIn(b, locale));
}

/** Whether two states of a product are in the same categories, collection and tags (its facets). */
export function sameClassification(a: CatalogProduct, b: CatalogProduct): boolean {
  return a.collection === b.collection && sameList(a.categories, b.categories) && sameList(a.tags, b.tags);
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((item, i) => item === b[i]);

/** The searched fields: the handle, then the title in each locale. */
const HANDLE_FIELD = 0;
const titleFieldOf = (locale: Locale) => 1 + LOCALES.indexOf(locale);

/**
 * A query word of at least this many letters also finds words a fifth of its length in
 * edits away (rounded: one edit from 5 letters, two from 8), at most two: more edits cost
 * a walk of most of the words and find what a shopper did not mean.
 */
const FUZZY_FROM_LENGTH = 5;
const FUZZY_EDITS_PER_LETTER = 0.2;
const MAX_FUZZY_EDITS = 2;

/**
 * Per field, the slots of the products having the term in that field. Most terms are in a
 * few products (a handle's numbers, rare words): their slots are kept in an array, in no
 * order, whose removal (a product changed or withdrawn) finds the slot and moves the last
 * one into its place. A term in more than a 32nd of the products (a common word) moves to
 * a bitmap, a bit per product, at most half the array's bytes, whose removal is
 * immediate. Sets, which these replaced, took 20 to 40 bytes a slot: 38 MB more at 100,000
 * products (docs/deploy.md, Memory).
 */
type Slots = number[] | SlotBitmap;
type Postings = (Slots | undefined)[];

/** An array this short stays an array, however few the products: a bitmap costs a few hundred bytes before its first bit. */
const MIN_SLOTS_IN_BITMAP = 64;

function addPosting(postings: Postings, field: number, slot: number, slotCount: number): void {
  const products = postings[field];
  if (products === undefined) postings[field] = [slot];
  else if (!Array.isArray(products)) products.add(slot);
  else if (products.length < Math.max(MIN_SLOTS_IN_BITMAP, slotCount >>> 5)) products.push(slot);
  else {
    const bitmap = new SlotBitmap(slotCount);
    for (const held of products) bitmap.add(held);
    postings[field] = bitmap.add(slot);
  }
}

function removePosting(postings: Postings, field: number, slot: number): void {
  const products = postings[field];
  if (products === undefined) return;
  if (Array.isArray(products)) {
    const at = products.indexOf(slot);
    if (at < 0) return;
    products[at] = products.at(-1)!;
    products.pop();
    if (products.length === 0) postings[field] = undefined;
  } else if (products.delete(slot) && products.size === 0) postings[field] = undefined;
}

function forEachSlot(products: Slots, visit: (slot: number) => void): void {
  if (Array.isArray(products)) for (const slot of products) visit(slot);
  else products.forEach(visit);
}

/** What a query matched, product by product (by slot: see SearchIndex). */
export interface Matches {
  /** How many products matched. */
  count: number;
  /** Per slot: 0 no match, {@link PARTIAL_MATCH}, or {@link WHOLE_WORDS_IN_TITLE} when every query word is a whole word of the title in the locale. */
  bySlot: Uint8Array;
}

const PARTIAL_MATCH = 1;
export const WHOLE_WORDS_IN_TITLE = 2;

/**
 * The catalog's full-text index: each word of a product's handle and titles (folded by
 * `words`) leads to the products that have it, field by field. Words are held in a radix
 * tree (MiniSearch's SearchableMap), which lists the words under a prefix and those
 * within a few edits of a misspelling. It computes no relevance scores: the served order
 * is the relevance tier, then the catalog's own order (query.ts), so a query costs the
 * postings of its words and no more, and nothing is sorted here.
 *
 * Products are numbered with small integers (slots, reused after removal) so that a
 * query marks them in typed arrays. A product is removed with the very state it was
 * indexed with, which names every posting it is in.
 */
export class SearchIndex {
  readonly #terms = new SearchableMap<Postings>();
  readonly #slotById = new Map<string, number>();
  readonly #productAt: (CatalogProduct | undefined)[] = [];
  readonly #createdAtMs: number[] = [];
  readonly #freeSlots: number[] = [];
  /** Per slot, a number that changes whenever the slot's product does: what derived per-slot data is checked against. */
  readonly #revisionAt: number[] = [];
  #revisions = 0;
  /** Per facet (`category:…`, `collection:…`, `tag:…`), the slots of the products in it: what the taxonomy filters and counts read. */
  readonly #facets = new Map<string, Set<number>>();

  add(product: CatalogProduct): void {
    if (this.#slotById.has(product.id)) throw new Error(`Product ${product.id} is already indexed`);
    const slot = this.#freeSlots.pop() ?? this.#productAt.length;
    this.#slotById.set(product.id, slot);
    this.#productAt[slot] = product;
    this.#createdAtMs[slot] = product.createdAtMs;
    this.#revisionAt[slot] = ++this.#revisions;
    this.#addFacets(product, slot);
    forEachTerm(product, (term, field) => {
      let postings = this.#terms.get(term);
      if (!postings) this.#terms.set(term, (postings = []));
      addPosting(postings, field, slot, this.#productAt.length);
    });
  }

  /** Removes a product; `product` must be the state it was indexed with. */
  remove(product: CatalogProduct): void {
    const slot = this.#slotById.get(product.id);
    if (slot === undefined) throw new Error(`Product ${product.id} is not indexed`);
    forEachTerm(product, (term, field) => {
      const postings = this.#terms.get(term);
      if (!postings) return;
      removePosting(postings, field, slot);
      if (postings.every((field) => field === undefined)) this.#terms.delete(term);
    });
    this.#removeFacets(product, slot);
    this.#slotById.delete(product.id);
    this.#productAt[slot] = undefined;
    this.#revisionAt[slot] = ++this.#revisions;
    this.#freeSlots.push(slot);
  }

  /** Points an indexed product at its newer state, whose searched fields are the same (a price or stock change). */
  replace(product: CatalogProduct): void {
    const slot = this.#slotById.get(product.id);
    if (slot === undefined) throw new Error(`Product ${product.id} is not indexed`);
    const before = this.#productAt[slot]!;
    if (!sameClassification(before, product)) {
      this.#removeFacets(before, slot);
      this.#addFacets(product, slot);
    }
    this.#productAt[slot] = product;
    this.#createdAtMs[slot] = product.createdAtMs;
    this.#revisionAt[slot] = ++this.#revisions;
  }

  /** The slots of the products in the facet; undefined when none is. */
  facet(kind: FacetKind, value: string): ReadonlySet<number> | undefined {
    return this.#facets.get(`${kind}:${value}`);
  }

  #addFacets(product: CatalogProduct, slot: number): void {
    forEachFacet(product, (facet) => {
      let slots = this.#facets.get(facet);
      if (!slots) this.#facets.set(facet, (slots = new Set()));
      slots.add(slot);
    });
  }

  #removeFacets(product: CatalogProduct, slot: number): void {
    forEachFacet(product, (facet) => {
      const slots = this.#facets.get(facet);
      slots?.delete(slot);
      if (slots?.size === 0) this.#facets.delete(facet);
    });
  }

  /** Slots in use or free: every indexed product is in a slot below this. */
  get slotCount(): number {
    return this.#productAt.length;
  }

  /** Changes whenever the product in the slot does (never repeats). */
  revisionAt(slot: number): number {
    return this.#revisionAt[slot] ?? 0;
  }

  /**
   * The products having every query word, or a word it begins (`oliv` finds `olive`) or
   * one within a fifth of its length in edits (from 5 letters), in the handle or in the
   * title in `locale`.
   */
  match(queryWords: readonly string[], locale: Locale): Matches {
    const title = titleFieldOf(locale);
    const slots = this.#productAt.length;
    // For each product, how many query words it has matched so far, as any word and as a
    // whole word of the title: a product counts for word n only if it matched all before.
    const matched = new Uint16Array(slots);
    const whole = new Uint16Array(slots);
    queryWords.forEach((word, index) => {
      const mark = (counts: Uint16Array, products: Slots | undefined) => {
        if (products)
          forEachSlot(products, (slot) => {
            if (counts[slot] === index) counts[slot] = index + 1;
          });
      };
      for (const [term, postings] of this.#similarTerms(word)) {
        mark(matched, postings[HANDLE_FIELD]);
        mark(matched, postings[title]);
        if (term === word) mark(whole, postings[title]);
      }
    });
    const bySlot = new Uint8Array(slots);
    let count = 0;
    if (queryWords.length === 0) return { count, bySlot };
    for (let slot = 0; slot < slots; slot++) {
      if (matched[slot] !== queryWords.length) continue;
      bySlot[slot] = whole[slot] === queryWords.length ? WHOLE_WORDS_IN_TITLE : PARTIAL_MATCH;
      count++;
    }
    return { count, bySlot };
  }

  /** The slot of an indexed product. */
  slotOf(productId: string): number | undefined {
    return this.#slotById.get(productId);
  }

  /** The creation time of the product in a slot, kept beside the products so that ordering many matches reads no product objects. */
  createdAtMs(slot: number): number {
    return this.#createdAtMs[slot]!;
  }

  /** The indexed state of the product in a slot. */
  productAt(slot: number): CatalogProduct | undefined {
    return this.#productAt[slot];
  }

  /** The indexed words a query word finds: those it begins, and the near misspellings of a long one. */
  *#similarTerms(word: string): Iterable<[string, Postings]> {
    yield* this.#terms.atPrefix(word);
    if (word.length < FUZZY_FROM_LENGTH) return;
    for (const [term, [postings]] of this.#terms.fuzzyGet(word, Math.min(MAX_FUZZY_EDITS, Math.round(word.length * FUZZY_EDITS_PER_LETTER)))) {
      // A word that begins with the query word was found as a prefix already.
      if (!term.startsWith(word)) yield [term, postings];
    }
  }
}

export type FacetKind = 'category' | 'collection' | 'tag';

/** The facets a product is in: its own categories (not their ancestors), its collection, its tags. */
function forEachFacet(product: CatalogProduct, visit: (facet: string) => void): void {
  for (const handle of product.categories) visit(`category:${handle}`);
  if (product.collection !== null) visit(`collection:${product.collection}`);
  for (const tag of product.tags) visit(`tag:${tag}`);
}

/** Each word of a product's searched fields, once per field. */
function forEachTerm(product: CatalogProduct, visit: (term: string, field: number) => void): void {
  const visitField = (text: string, field: number) => {
    for (const term of new Set(words(text))) visit(term, field);
  };
  visitField(product.handle, HANDLE_FIELD);
  for (const locale of LOCALES) visitField(titleIn(product, locale), titleFieldOf(locale));
}
