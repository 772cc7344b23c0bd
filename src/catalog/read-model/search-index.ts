import MiniSearch from 'minisearch';
import { LOCALES, textIn, type Locale } from '../locales.js';
import type { CatalogProduct } from './live-catalog.js';
import { words } from './text.js';

type TitleField = `title_${Locale}`;

/** A product's handle and its title in every locale, one field per locale. */
export type SearchDocument = { id: string; handle: string } & Record<TitleField, string>;

export const titleField = (locale: Locale): TitleField => `title_${locale}`;

/** Title in the locale, falling back to the default locale, as it is served and searched. */
export function titleIn(product: CatalogProduct, locale: Locale): string {
  return textIn(product, locale).title;
}

/**
 * An empty index, filled and changed one product at a time. A product is removed with
 * the very document it was indexed with (`searchDocument` of its old state), which
 * clears its entries at once.
 */
export function createSearchIndex(): MiniSearch<SearchDocument> {
  return new MiniSearch<SearchDocument>({
    fields: ['handle', ...LOCALES.map(titleField)],
    // words() already folds case and accents, for documents and queries alike.
    tokenize: words,
    processTerm: (term) => term,
    // Products leave the index through remove(), never discard(): discarded entries are
    // cleared by a vacuum that walks the whole index in batches, which stalled the event
    // loop for 50 to 80 ms at 10,000 products, and failed (MiniSearch 7.2: "Cannot read
    // properties of undefined (reading 'keys')") when products were added between batches.
    autoVacuum: false,
  });
}

export function searchDocument(product: CatalogProduct): SearchDocument {
  const document = { id: product.id, handle: product.handle } as SearchDocument;
  for (const locale of LOCALES) document[titleField(locale)] = titleIn(product, locale);
  return document;
}

/** Whether two states of a product are indexed alike (a price or stock change is not re-indexed). */
export function sameSearchFields(a: CatalogProduct, b: CatalogProduct): boolean {
  return a.handle === b.handle && LOCALES.every((locale) => titleIn(a, locale) === titleIn(b, locale));
}
