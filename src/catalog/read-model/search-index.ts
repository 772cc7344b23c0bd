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
 * An empty index, filled and changed one product at a time. Removed documents are
 * discarded at once and their index entries vacuumed later in small batches
 * (MiniSearch's autoVacuum), so removals never stall the event loop.
 */
export function createSearchIndex(): MiniSearch<SearchDocument> {
  return new MiniSearch<SearchDocument>({
    fields: ['handle', ...LOCALES.map(titleField)],
    // words() already folds case and accents, for documents and queries alike.
    tokenize: words,
    processTerm: (term) => term,
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
