import MiniSearch from 'minisearch';
import { LOCALES, textIn, type Locale } from '../locales.js';
import type { CatalogProduct } from './snapshot.js';
import { words } from './text.js';

type TitleField = `title_${Locale}`;

/** A product's handle and its title in every locale, one field per locale. */
export type SearchDocument = { id: string; handle: string } & Record<TitleField, string>;

export const titleField = (locale: Locale): TitleField => `title_${locale}`;

/** Title in the locale, falling back to the default locale, as it is served and searched. */
export function titleIn(product: CatalogProduct, locale: Locale): string {
  return textIn(product, locale).title;
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
      ...(Object.fromEntries(LOCALES.map((locale) => [titleField(locale), titleIn(product, locale)])) as Record<TitleField, string>),
    })),
  );
  return index;
}
