import { DEFAULT_LOCALE, type Locale } from './locales.js';

/** Bounds of the taxonomy in the catalog file and in filters (docs/catalog-format.md). */
export const TAXONOMY_HANDLE_MAX_LENGTH = 100;
export const MAX_PRODUCT_CATEGORIES = 20;
export const MAX_PRODUCT_TAGS = 50;
export const MAX_PRODUCT_IMAGES = 20;
/** Categories, and collections, a catalog file declares: far more than any storefront's menu, and a bound on what an import holds. */
export const MAX_CATALOG_CATEGORIES = 10_000;
export const MAX_CATALOG_COLLECTIONS = 10_000;
/** Levels of the category tree below the top: deep enough for any storefront menu, and a bound on a subtree walk. */
export const MAX_CATEGORY_DEPTH = 8;

/** Title per locale; the default locale's is always present. */
export type Titles = Readonly<Partial<Record<Locale, string>>>;

export interface Category {
  readonly handle: string;
  readonly parent: string | null;
  readonly titles: Titles;
}

export interface Collection {
  readonly handle: string;
  readonly titles: Titles;
}

export const titleIn = (titles: Titles, locale: Locale): string => titles[locale] ?? titles[DEFAULT_LOCALE]!;

/**
 * The category tree and the collections as the catalog serves them, replaced whole when
 * either changes (like the regions). Categories are kept in tree order: each parent
 * before its children, siblings in the order the store lists them.
 */
export class Taxonomy {
  readonly categories: readonly Category[];
  readonly collections: readonly Collection[];
  readonly #categoryByHandle: ReadonlyMap<string, Category>;
  readonly #collectionByHandle: ReadonlyMap<string, Collection>;
  readonly #depth = new Map<string, number>();
  /** Per category, itself and every category below it. */
  readonly #subtree = new Map<string, Set<string>>();

  /** `categories` in position order; a category whose parent is unknown is served at the top. */
  constructor(categories: readonly Category[], collections: readonly Collection[]) {
    const known = new Set(categories.map((category) => category.handle));
    const childrenOf = new Map<string | null, Category[]>();
    for (const category of categories) {
      const parent = category.parent !== null && known.has(category.parent) ? category.parent : null;
      let siblings = childrenOf.get(parent);
      if (!siblings) childrenOf.set(parent, (siblings = []));
      siblings.push(parent === category.parent ? category : { ...category, parent });
    }
    const ordered: Category[] = [];
    const visit = (category: Category, depth: number, ancestors: string[]) => {
      ordered.push(category);
      this.#depth.set(category.handle, depth);
      for (const handle of [...ancestors, category.handle]) {
        let subtree = this.#subtree.get(handle);
        if (!subtree) this.#subtree.set(handle, (subtree = new Set()));
        subtree.add(category.handle);
      }
      for (const child of childrenOf.get(category.handle) ?? []) visit(child, depth + 1, [...ancestors, category.handle]);
    };
    for (const top of childrenOf.get(null) ?? []) visit(top, 0, []);
    // Writers refuse cycles; a category only reachable through one is not served.
    this.categories = ordered;
    this.collections = collections;
    this.#categoryByHandle = new Map(ordered.map((category) => [category.handle, category]));
    this.#collectionByHandle = new Map(collections.map((collection) => [collection.handle, collection]));
  }

  category(handle: string): Category | undefined {
    return this.#categoryByHandle.get(handle);
  }

  collection(handle: string): Collection | undefined {
    return this.#collectionByHandle.get(handle);
  }

  /** 0 for a top-level category. */
  depthOf(handle: string): number {
    return this.#depth.get(handle) ?? 0;
  }

  /** The category and every category below it; empty for an unknown handle. */
  subtree(handle: string): ReadonlySet<string> {
    return this.#subtree.get(handle) ?? EMPTY;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

export const EMPTY_TAXONOMY = new Taxonomy([], []);
