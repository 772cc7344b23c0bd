import MiniSearch from 'minisearch';
import { type CatalogProduct, LOCALES, type Locale } from './snapshot.js';
import { words } from './text.js';

export interface SearchDocument {
  id: string;
  handle: string;
  title_en: string;
  title_it: string;
}

export const titleField = (locale: Locale) => `title_${locale}`;

/** Title in the locale, falling back to English, as it is served and searched. */
export function titleIn(product: CatalogProduct, locale: Locale): string {
  return (product.texts.get(locale) ?? product.texts.get('en')!).title;
}

export function buildSearchIndex(products: CatalogProduct[]): MiniSearch<SearchDocument> {
  const index = new MiniSearch<SearchDocument>({
    fields: ['handle', ...LOCALES.map(titleField)],
    // words() already folds case and accents, for documents and queries alike.
    tokenize: words,
    processTerm: (term) => term,
  });
  index.addAll(
    products.map((product) => ({
      id: product.id,
      handle: product.handle,
      title_en: titleIn(product, 'en'),
      title_it: titleIn(product, 'it'),
    })),
  );
  return index;
}
