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

/** Why a category is not where the tree may hold it; `chain`: the category and the parents followed from it, nearest first. */
export type CategoryMisplacement = { kind: 'cycle'; through: string; chain: string[] } | { kind: 'too_deep'; chain: string[] };

/**
 * Follows the parents of `handle` towards the top, at most `MAX_CATEGORY_DEPTH` + 1 steps
 * whatever the tree (a parent `parentOf` does not hold ends the walk like the top): what
 * the file check and the import, over the stored tree, both refuse.
 */
export function misplacement(handle: string, parentOf: ReadonlyMap<string, string | null>): CategoryMisplacement | undefined {
  const chain = new Set([handle]);
  for (let above = parentOf.get(handle) ?? null; above !== null && parentOf.has(above); above = parentOf.get(above)!) {
    if (chain.has(above)) return { kind: 'cycle', through: above, chain: [...chain] };
    chain.add(above);
    if (chain.size > MAX_CATEGORY_DEPTH + 1) return { kind: 'too_deep', chain: [...chain] };
  }
  return undefined;
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
  /** Per category, where it is in `categories` and how many categories its subtree holds there. */
  readonly #span = new Map<string, { start: number; size: number }>();
  /** Per category asked for, itself and every category below it. */
  readonly #subtree = new Map<string, ReadonlySet<string>>();

  /**
   * `categories` in position order; a category whose parent is unknown is served at the
   * top. Built without recursion, in time linear in the categories: a stored tree of any
   * depth loads (writers keep new trees within `MAX_CATEGORY_DEPTH`).
   */
  constructor(categories: readonly Category[], collections: readonly Collection[]) {
    const known = new Set(categories.map((category) => category.handle));
    const childrenOf = new Map<string | null, Category[]>();
    for (const category of categories) {
      const parent = category.parent !== null && known.has(category.parent) ? category.parent : null;
      let siblings = childrenOf.get(parent);
      if (!siblings) childrenOf.set(parent, (siblings = []));
      siblings.push(parent === category.parent ? category : { ...category, parent });
    }
    // Depth first, each parent before its children: a subtree is a run of `ordered`.
    const ordered: Category[] = [];
    const stack = [...(childrenOf.get(null) ?? [])].reverse();
    for (let category = stack.pop(); category; category = stack.pop()) {
      this.#depth.set(category.handle, category.parent === null ? 0 : this.#depth.get(category.parent)! + 1);
      this.#span.set(category.handle, { start: ordered.length, size: 1 });
      ordered.push(category);
      const children = childrenOf.get(category.handle) ?? [];
      for (let c = children.length - 1; c >= 0; c--) stack.push(children[c]!);
    }
    // Children come after their parents: counting from the end adds each finished subtree to its parent's.
    for (let i = ordered.length - 1; i >= 0; i--) {
      const { handle, parent } = ordered[i]!;
      if (parent !== null) this.#span.get(parent)!.size += this.#span.get(handle)!.size;
    }
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
    const span = this.#span.get(handle);
    if (!span) return EMPTY;
    let subtree = this.#subtree.get(handle);
    if (!subtree) {
      subtree = new Set(this.categories.slice(span.start, span.start + span.size).map((category) => category.handle));
      this.#subtree.set(handle, subtree);
    }
    return subtree;
  }
}

const EMPTY: ReadonlySet<string> = new Set();

export const EMPTY_TAXONOMY = new Taxonomy([], []);
