import type {
  CatalogFile,
  CatalogFileCategory,
  CatalogFileCollection,
  CatalogFileProduct,
  CatalogFileRegion,
  CatalogFileVariant,
} from '../../src/catalog/file/catalog-file-schema.js';
import {
  AREAS_OF_ITALY,
  CATEGORIES,
  CLOSINGS,
  COLLECTIONS,
  GENERAL_TAGS,
  IMAGE_VIEWS,
  REGIONS_CATEGORY,
  type Adjective,
  type Category,
  type CollectionSpec,
  type Gender,
  type Noun,
  type OptionSpec,
  type Origin,
  type Text,
} from './vocabulary.js';

/**
 * A large synthetic catalog for benchmarks and load tests. Same seed, same bytes: there is
 * no Math.random and no clock, so a benchmark run can be reproduced exactly. Titles are
 * built from category, adjective and noun word lists so that search queries ("olive",
 * "pecorino", "linen") match realistic subsets rather than all or nothing. Products are
 * filed the same way: in the category of their noun (below the top-level category of
 * their kind) and often in that of their region of origin, tagged after their adjective.
 */
export interface GenerateCatalogOptions {
  products: number;
  seed: number;
}

export const MAX_GENERATED_PRODUCTS = 1_000_000;

export const GENERATED_REGIONS: CatalogFileRegion[] = [
  { id: 'reg_it', name: 'Italy', currency: 'EUR', countries: ['IT'] },
  { id: 'reg_eu', name: 'European Union', currency: 'EUR', countries: ['DE', 'FR', 'ES', 'NL', 'AT', 'BE'] },
  { id: 'reg_gb', name: 'United Kingdom', currency: 'GBP', countries: ['GB'] },
  { id: 'reg_us', name: 'United States', currency: 'USD', countries: ['US'] },
  { id: 'reg_ch', name: 'Switzerland', currency: 'CHF', countries: ['CH'] },
];

/** The handle of the category of each noun's products (below the top-level category of its kind). */
const NOUN_CATEGORY = new Map<Noun, string>(CATEGORIES.flatMap((category) => category.nouns.map((noun) => [noun, slugify(noun.en)])));

/** Titles as the catalog file holds them (one per locale). */
const titles = ({ en, it }: Text) => ({ en, it });

/** Every kind's category with its nouns below it, then the regions of Italy by part of Italy: the same for every seed. */
export const GENERATED_CATEGORIES: CatalogFileCategory[] = [
  ...CATEGORIES.flatMap((category) => [
    { handle: category.handle, titles: titles(category.title) },
    ...category.nouns.map((noun) => ({ handle: NOUN_CATEGORY.get(noun)!, parent: category.handle, titles: { en: noun.en, it: capitalise(noun.it) } })),
  ]),
  { handle: REGIONS_CATEGORY.handle, titles: titles(REGIONS_CATEGORY.title) },
  ...AREAS_OF_ITALY.flatMap((area) => [
    { handle: area.handle, parent: REGIONS_CATEGORY.handle, titles: titles(area.title) },
    ...area.regions.map((region) => ({ handle: region.handle, parent: area.handle, titles: titles(region.title) })),
  ]),
];

export const GENERATED_COLLECTIONS: CatalogFileCollection[] = COLLECTIONS.map((collection) => ({ handle: collection.handle, titles: titles(collection.title) }));

/** The collections a product of each kind may be in, by the kind's code. */
const COLLECTIONS_BY_CODE = new Map<string, CollectionSpec[]>(
  CATEGORIES.map((category) => [category.code, COLLECTIONS.filter((collection) => collection.codes.includes(category.code))]),
);

export function generateCatalog(options: GenerateCatalogOptions): CatalogFile {
  return {
    version: 1,
    regions: GENERATED_REGIONS,
    categories: GENERATED_CATEGORIES,
    collections: GENERATED_COLLECTIONS,
    products: [...generateProducts(options)],
  };
}

/** Products one at a time, so a writer can stream a million of them without holding them all. */
export function* generateProducts(options: GenerateCatalogOptions): Generator<CatalogFileProduct> {
  assertOptions(options);
  const random = createRandom(options.seed);
  // Filing draws from a sequence of its own, so that it changes no other field of a seed's
  // products (docs/decisions.md, Taxonomy in the catalog file).
  const filing = createRandom(options.seed ^ FILING_SEED);
  const handles = new HandleAllocator();
  const createdAt = createdAtSlots(options.products, random);
  for (let index = 0; index < options.products; index++) {
    yield buildProduct(random, filing, index, handles.allocate, createdAt(index));
  }
}

/** Any fixed number: it only keeps the filing sequence apart from the products' own. */
const FILING_SEED = 0x5eed7a40;

function assertOptions({ products, seed }: GenerateCatalogOptions): void {
  if (!Number.isInteger(products) || products < 0 || products > MAX_GENERATED_PRODUCTS) {
    throw new RangeError(`products must be an integer from 0 to ${MAX_GENERATED_PRODUCTS}, got ${products}`);
  }
  if (!Number.isInteger(seed)) throw new RangeError(`seed must be an integer, got ${seed}`);
}

// ---------------------------------------------------------------------------------------
// Seeded randomness

interface Random {
  next(): number;
  int(min: number, max: number): number;
  chance(probability: number): boolean;
  pick<T>(items: readonly T[]): T;
}

/** mulberry32: tiny, fast and good enough for test data; not for anything secret. */
function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number): number => min + Math.floor(next() * (max - min + 1));
  return {
    next,
    int,
    chance: (probability) => next() < probability,
    pick: (items) => items[int(0, items.length - 1)]!,
  };
}

// ---------------------------------------------------------------------------------------
// Product assembly

type AllocateHandle = (title: string) => string;

function buildProduct(random: Random, filing: Random, index: number, allocateHandle: AllocateHandle, createdAt: string): CatalogFileProduct {
  const category = random.pick(CATEGORIES);
  const noun = random.pick(category.nouns);
  const adjective = random.pick(category.adjectives);
  const origin = random.pick(category.origins);
  const title: Text = {
    en: `${adjective.en} ${noun.en} from ${origin.en}`,
    it: `${noun.it} ${inflect(adjective.it, noun.gender)} ${origin.itOf}`,
  };
  const handle = allocateHandle(title.en);
  const options = pickOptions(random, category.options);
  const skuPrefix = `BV-${category.code}-${skuCode(noun.en).slice(0, 4)}-${String(index + 1).padStart(6, '0')}`;
  return {
    handle,
    // Drafts and weighted products exist so tests can prove they are never served.
    status: random.chance(0.05) ? 'draft' : 'published',
    weighted: random.chance(0.02),
    thumbnail: random.chance(0.96) ? `${IMAGES_URL}${handle}.jpg` : null,
    created_at: createdAt,
    translations: buildTranslations(random, category, origin, title),
    ...buildFiling(filing, { category, noun, adjective, origin }, handle, title.en),
    options: options.map((option) => ({ name: option.name, values: option.values.map(([value]) => value) })),
    variants: buildVariants(random, category, options, skuPrefix),
  };
}

function buildTranslations(random: Random, category: Category, origin: Origin, title: Text): CatalogFileProduct['translations'] {
  const blurb = random.pick(category.blurbs);
  const closing = random.chance(0.5) ? random.pick(CLOSINGS) : undefined;
  const en = [blurb.en, `From a ${category.maker.en} in ${origin.en}.`, closing?.en].filter(Boolean).join(' ');
  const it = [blurb.it, `Da ${category.maker.it} ${origin.itIn}.`, closing?.it].filter(Boolean).join(' ');
  // A few products lack Italian or a description, to exercise the locale fallback.
  const hasItalian = random.chance(0.98);
  const hasDescription = random.chance(0.99);
  return {
    en: { title: title.en, description: hasDescription ? en : null },
    ...(hasItalian ? { it: { title: capitalise(title.it), description: hasDescription ? it : null } } : {}),
  };
}

const IMAGES_URL = 'https://images.vetrina.example/products/';
/** Skewed low, as in shops: a tag or two at most on most products, an image or two on most. */
const EXTRA_TAG_COUNTS = [0, 0, 0, 1, 1, 1, 2, 3] as const;
const IMAGE_COUNTS = [0, 1, 1, 1, 2, 2, 3] as const;

interface Picks {
  category: Category;
  noun: Noun;
  adjective: Adjective;
  origin: Origin;
}

type Filing = Pick<CatalogFileProduct, 'categories' | 'collection' | 'tags' | 'images'>;

/**
 * The product's categories (its noun's, and half the time its region's), a collection that
 * suits its kind four times in ten, up to four tags (its adjective's, if it has one, and
 * general ones) and up to three images. Empty members are left out of the file.
 */
function buildFiling(random: Random, picks: Picks, handle: string, title: string): Filing {
  const categories = [NOUN_CATEGORY.get(picks.noun)!];
  if (random.chance(0.5)) categories.push(picks.origin.region);
  const collection = random.chance(0.4) ? random.pick(COLLECTIONS_BY_CODE.get(picks.category.code)!).handle : undefined;
  const general = pickInOrder(random, GENERAL_TAGS, random.pick(EXTRA_TAG_COUNTS));
  const tags = picks.adjective.tag === undefined ? general : [picks.adjective.tag, ...general];
  const images = Array.from({ length: random.pick(IMAGE_COUNTS) }, (_, i) => ({
    url: `${IMAGES_URL}${handle}-${i + 1}.jpg`,
    // A few images lack a description, as in real catalogs: they are served with `alt: null`.
    ...(random.chance(0.97) && { alt: `${title}, ${IMAGE_VIEWS[i]!}` }),
  }));
  return {
    categories,
    ...(collection !== undefined && { collection }),
    ...(tags.length > 0 && { tags }),
    ...(images.length > 0 && { images }),
  };
}

function inflect(form: Adjective['it'], gender: Gender): string {
  if (typeof form !== 'string') return form[['m', 'f', 'mp', 'fp'].indexOf(gender)]!;
  const [word = '', ...rest] = form.split(' ');
  return [inflectWord(word, gender), ...rest].join(' ');
}

function inflectWord(word: string, gender: Gender): string {
  const endings: [string, Record<Gender, string>][] = [
    ['io', { m: 'io', f: 'ia', mp: 'i', fp: 'ie' }],
    ['ico', { m: 'ico', f: 'ica', mp: 'ici', fp: 'iche' }],
    ['o', { m: 'o', f: 'a', mp: 'i', fp: 'e' }],
    ['e', { m: 'e', f: 'e', mp: 'i', fp: 'i' }],
  ];
  for (const [ending, forms] of endings) {
    if (word.endsWith(ending)) return word.slice(0, -ending.length) + forms[gender];
  }
  return word;
}

/**
 * At most 12 option-value combinations, so every product stays small. Only a lone option
 * may have a single value: a second option that never varies would be noise.
 */
function pickOptions(random: Random, specs: readonly OptionSpec[]): OptionSpec[] {
  const count = random.chance(0.5) ? 1 : random.chance(0.7) ? 2 : 3;
  const chosen = pickInOrder(random, specs, count);
  const min = count === 1 ? 1 : 2;
  let budget = 12;
  return chosen.map((spec, i) => {
    const remainingOptions = chosen.length - i - 1;
    const max = Math.min(spec.values.length, Math.floor(budget / min ** remainingOptions));
    const values = pickInOrder(random, spec.values, random.int(min, max));
    budget = Math.floor(budget / values.length);
    return { name: spec.name, values };
  });
}

function pickInOrder<T>(random: Random, items: readonly T[], count: number): T[] {
  const indexes = items.map((_, i) => i);
  for (let i = indexes.length - 1; i > 0; i--) {
    const j = random.int(0, i);
    [indexes[i], indexes[j]] = [indexes[j]!, indexes[i]!];
  }
  return indexes.slice(0, count).sort((a, b) => a - b).map((i) => items[i]!);
}

function buildVariants(random: Random, category: Category, options: OptionSpec[], skuPrefix: string): CatalogFileVariant[] {
  const basePrice = random.int(category.basePrice[0], category.basePrice[1]);
  const pricing = pickPricingQuirks(random);
  const soldOut = random.chance(0.03);
  return combinations(options).map((combo) => {
    const factor = combo.reduce((product, [, priceFactor]) => product * priceFactor, 1);
    return {
      sku: [skuPrefix, ...combo.map(([value]) => skuCode(value))].join('-'),
      options: combo.map(([value]) => value),
      ...pickAvailability(random, soldOut),
      prices: buildPrices(random, retailPrice(basePrice * factor), pricing),
    };
  });
}

function combinations(options: OptionSpec[]): (readonly [string, number])[][] {
  return options.reduce<(readonly [string, number])[][]>(
    (acc, option) => acc.flatMap((prefix) => option.values.map((value) => [...prefix, value])),
    [[]],
  );
}

type Availability = Pick<CatalogFileVariant, 'manage_inventory' | 'inventory_quantity' | 'allow_backorder'>;

function pickAvailability(random: Random, soldOut: boolean): Availability {
  const roll = soldOut ? 1 : random.next();
  if (roll < 0.74) return { manage_inventory: true, inventory_quantity: stockLevel(random), allow_backorder: false };
  if (roll < 0.82) return { manage_inventory: false, inventory_quantity: 0, allow_backorder: false };
  if (roll < 0.9) return { manage_inventory: true, inventory_quantity: 0, allow_backorder: true };
  return { manage_inventory: true, inventory_quantity: 0, allow_backorder: false };
}

// Skewed low: most shelves hold a handful, a few hold pallets.
function stockLevel(random: Random): number {
  return 1 + Math.floor(random.next() ** 3 * 500);
}

interface PricingQuirks {
  noUsd: boolean;
  euFactor: number | undefined;
  chFactor: number | undefined;
}

function pickPricingQuirks(random: Random): PricingQuirks {
  return {
    noUsd: random.chance(0.03),
    euFactor: random.chance(0.05) ? 1.03 + random.int(0, 9) / 100 : undefined,
    chFactor: random.chance(0.03) ? 1.08 + random.int(0, 7) / 100 : undefined,
  };
}

const EXCHANGE = { GBP: 0.86, USD: 1.12, CHF: 0.98 } as const;
const CONVERTED_CURRENCIES = Object.keys(EXCHANGE);

function buildPrices(random: Random, eur: number, quirks: PricingQuirks): CatalogFileVariant['prices'] {
  const missing = random.chance(0.02) ? random.pick(CONVERTED_CURRENCIES) : undefined;
  const prices: CatalogFileVariant['prices'] = [{ currency: 'EUR', amount: eur }];
  if (quirks.euFactor !== undefined) {
    prices.push({ currency: 'EUR', amount: distinctFrom(eur, roundTo10(eur * quirks.euFactor)), region: 'reg_eu' });
  }
  for (const [currency, rate] of Object.entries(EXCHANGE)) {
    if (currency === missing || (currency === 'USD' && quirks.noUsd)) continue;
    prices.push({ currency, amount: roundTo10(eur * rate) });
  }
  if (quirks.chFactor !== undefined && missing !== 'CHF') {
    prices.push({ currency: 'CHF', amount: roundTo10(eur * quirks.chFactor), region: 'reg_ch' });
  }
  return prices;
}

/** Shop prices end in .90: 12.90, not 12.37. */
function retailPrice(amount: number): number {
  return Math.max(90, Math.round(amount / 100) * 100 - 10);
}

function roundTo10(amount: number): number {
  return Math.max(10, Math.round(amount / 10) * 10);
}

// A regional price equal to the plain one would prove nothing in tests.
function distinctFrom(plain: number, regional: number): number {
  return regional === plain ? plain + 50 : regional;
}

function skuCode(text: string): string {
  return stripAccents(text).replace(/[^A-Za-z0-9]/g, '').toUpperCase().slice(0, 12);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function stripAccents(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

// ---------------------------------------------------------------------------------------
// Uniqueness

/** Titles repeat in large catalogs; the second "Aged Pecorino from Sicily" gets `-2`. */
class HandleAllocator {
  private readonly used = new Set<string>();
  private readonly nextSuffix = new Map<string, number>();

  readonly allocate = (title: string): string => {
    const base = slugify(title);
    let suffix = this.nextSuffix.get(base) ?? 1;
    let handle = suffix === 1 ? base : `${base}-${suffix}`;
    while (this.used.has(handle)) handle = `${base}-${++suffix}`;
    this.nextSuffix.set(base, suffix + 1);
    this.used.add(handle);
    return handle;
  };
}

function slugify(title: string): string {
  return stripAccents(title).toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 180).replace(/-+$/, '');
}

const CREATED_FROM = Date.parse('2025-01-01T00:00:00Z');
const CREATED_UNTIL = Date.parse('2026-10-31T00:00:00Z');

/**
 * Each product gets its own time slot, shuffled so that file order and catalog order
 * (by created_at) differ; a jitter inside the slot keeps timestamps irregular yet distinct.
 */
function createdAtSlots(count: number, random: Random): (index: number) => string {
  const slotMs = Math.floor((CREATED_UNTIL - CREATED_FROM) / Math.max(count, 1));
  const slots = Uint32Array.from({ length: count }, (_, i) => i);
  for (let i = count - 1; i > 0; i--) {
    const j = random.int(0, i);
    [slots[i], slots[j]] = [slots[j]!, slots[i]!];
  }
  return (index) => new Date(CREATED_FROM + slots[index]! * slotMs + random.int(0, slotMs - 1)).toISOString();
}
