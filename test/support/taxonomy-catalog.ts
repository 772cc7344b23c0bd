import type { CatalogFile } from '../../src/catalog/file/catalog-file-schema.js';
import { catalog, category, collection, product, variant } from './catalog-builder.js';

const TAXONOMY = {
  categories: [
    category('olive-oils', { parent: 'oils', title: 'Olive oils', titleIt: "Oli d'oliva" }),
    category('coffee', { title: 'Coffee', titleIt: 'Caffè' }),
    category('oils', { parent: 'pantry', title: 'Oils', titleIt: 'Oli' }),
    category('espresso', { parent: 'coffee', title: 'Espresso' }),
    category('pantry', { title: 'Pantry', titleIt: 'Dispensa' }),
    category('honey', { parent: 'pantry', title: 'Honey', titleIt: 'Miele' }),
    category('gifts', { title: 'Gifts', titleIt: 'Regali' }),
  ],
  collections: [collection('summer', { title: 'Summer', titleIt: 'Estate' }), collection('classics', { title: 'Classics' }), collection('empty-shelf')],
};

const eurAndGbp = [
  { currency: 'EUR', amount: 1200 },
  { currency: 'GBP', amount: 1000 },
];

const PRODUCTS = [
  product('espresso-beans', { categories: ['espresso'], collection: 'classics', variants: [variant('BEANS', { prices: eurAndGbp })] }),
  product('moka-blend', { categories: ['coffee', 'espresso'], collection: 'classics' }),
  product('tuscan-olive-oil', {
    categories: ['olive-oils', 'oils'],
    collection: 'summer',
    variants: [variant('TUSCAN', { manage_inventory: true, inventory_quantity: 5, prices: eurAndGbp })],
  }),
  product('sold-out-oil', { categories: ['olive-oils'], collection: 'summer', variants: [variant('SOLD-OUT', { manage_inventory: true, inventory_quantity: 0 })] }),
  product('acacia-honey', { categories: ['honey'], variants: [variant('ACACIA', { manage_inventory: true, inventory_quantity: 0, allow_backorder: true })] }),
  product('plain-product'),
  product('draft-espresso', { status: 'draft', categories: ['espresso'], collection: 'classics' }),
];

/**
 * A small catalog with a taxonomy, shared by the REST and MCP taxonomy tests. The tree,
 * listed with children before their parents:
 *
 *   coffee (Caffè)            espresso-beans, moka-blend (the latter in coffee and espresso)
 *     espresso                espresso-beans, moka-blend (no Italian title)
 *   pantry (Dispensa)
 *     oils (Oli)
 *       olive-oils            tuscan-olive-oil (also in oils), sold-out-oil
 *     honey (Miele)           acacia-honey
 *   gifts (Regali)            nothing
 *
 * Prices: everything in EUR; espresso-beans and tuscan-olive-oil also in GBP; nothing in
 * USD. sold-out-oil is out of stock; acacia-honey is on backorder (purchasable).
 */
export const TAXONOMY_CATALOG: CatalogFile = { ...catalog(PRODUCTS), ...TAXONOMY };
