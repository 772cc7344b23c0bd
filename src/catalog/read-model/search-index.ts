import SearchableMap from 'minisearch/SearchableMap';
import { LOCALES, type Locale } from '../model/locales.js';
import { textIn } from './product.js';
import type { CatalogProduct } from './product.js';
import { KeyedIndex } from './keyed-index.js';
import { forEachSlot, withoutSlot, withSlot, type Slots } from './slot-bitmap.js';
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

/** Per field, the slots of the products having the term in that field (`Slots`: an array for a few, a bitmap for many). */
type Postings = (Slots | undefined)[];

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
  /** Slots by their product's id: the key is read from the product in the slot, so it is set after the slot's product and removed before. */
  readonly #slotById = new KeyedIndex<number>((slot) => this.#productAt[slot]!.id);
  readonly #productAt: (CatalogProduct | undefined)[] = [];
  readonly #createdAtMs: number[] = [];
  readonly #freeSlots: number[] = [];
  /** Per slot, a number that changes whenever the slot's product does: what derived per-slot data is checked against. */
  readonly #revisionAt: number[] = [];
  #revisions = 0;
  /** Per facet (`category:…`, `collection:…`, `tag:…`), the slots of the products in it: what the taxonomy filters and counts read. */
  readonly #facets = new Map<string, Slots>();

  add(product: CatalogProduct): void {
    if (this.#slotById.has(product.id)) throw new Error(`Product ${product.id} is already indexed`);
    const slot = this.#freeSlots.pop() ?? this.#productAt.length;
    this.#productAt[slot] = product;
    this.#slotById.set(slot);
    this.#createdAtMs[slot] = product.createdAtMs;
    this.#revisionAt[slot] = ++this.#revisions;
    this.#addFacets(product, slot);
    forEachTerm(product, (term, field) => {
      let postings = this.#terms.get(term);
      if (!postings) this.#terms.set(term, (postings = []));
      postings[field] = withSlot(postings[field], slot, this.#productAt.length);
    });
  }

  /** Removes a product; `product` must be the state it was indexed with. */
  remove(product: CatalogProduct): void {
    const slot = this.#slotById.get(product.id);
    if (slot === undefined) throw new Error(`Product ${product.id} is not indexed`);
    forEachTerm(product, (term, field) => {
      const postings = this.#terms.get(term);
      if (!postings) return;
      postings[field] = withoutSlot(postings[field], slot);
      if (postings.every((field) => field === undefined)) this.#terms.delete(term);
    });
    this.#removeFacets(product, slot);
    this.#slotById.delete(slot);
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

  /** Calls `visit` with the slot of each product in the facet. */
  forEachInFacet(kind: FacetKind, value: string, visit: (slot: number) => void): void {
    const slots = this.#facets.get(`${kind}:${value}`);
    if (slots) forEachSlot(slots, visit);
  }

  #addFacets(product: CatalogProduct, slot: number): void {
    forEachFacet(product, (facet) => this.#facets.set(facet, withSlot(this.#facets.get(facet), slot, this.#productAt.length)));
  }

  #removeFacets(product: CatalogProduct, slot: number): void {
    forEachFacet(product, (facet) => {
      const slots = withoutSlot(this.#facets.get(facet), slot);
      if (slots) this.#facets.set(facet, slots);
      else this.#facets.delete(facet);
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
