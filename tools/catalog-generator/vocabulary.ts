/**
 * The vocabulary of the synthetic catalog: categories with their nouns, adjectives,
 * origins, options and price ranges in English and Italian, and the taxonomy the
 * products are filed in (the regions of Italy, collections, tags). Kept apart from the
 * generator so the data can grow without touching the logic.
 */

export type Gender = 'm' | 'f' | 'mp' | 'fp';

export interface Noun {
  en: string;
  it: string;
  gender: Gender;
}

/** `it` is inflected to agree with the noun unless it is given as four explicit forms. */
export interface Adjective {
  en: string;
  it: string | readonly [m: string, f: string, mp: string, fp: string];
  /** The tag of the products it describes ("Organic" ones are tagged `organic`), if any. */
  tag?: string;
}

export interface Origin {
  en: string;
  itOf: string;
  itIn: string;
  /** The handle of the region of Italy it is in (`AREAS_OF_ITALY`). */
  region: string;
}

export interface OptionSpec {
  name: string;
  /** Value and its price factor against the product's base price. */
  values: readonly (readonly [value: string, priceFactor: number])[];
}

export interface Text {
  en: string;
  it: string;
}

/** A category, collection or region: a handle and a title per locale. */
export interface Titled {
  handle: string;
  title: Text;
}

/** A top-level category of the generated catalog; its nouns are the categories below it. */
export interface Category extends Titled {
  code: string;
  nouns: readonly Noun[];
  adjectives: readonly Adjective[];
  origins: readonly Origin[];
  maker: Text;
  options: readonly OptionSpec[];
  basePrice: readonly [min: number, max: number];
  blurbs: readonly Text[];
}

const n = (en: string, it: string, gender: Gender): Noun => ({ en, it, gender });
const adj = (en: string, it: Adjective['it'], tag?: string): Adjective => ({ en, it, ...(tag && { tag }) });
// Prepositional phrases ("in lino", "al pistacchio") do not agree with the noun.
const fixed = (en: string, it: string, tag?: string): Adjective => adj(en, [it, it, it, it], tag);
const o = (en: string, itOf: string, itIn: string, region: string): Origin => ({ en, itOf, itIn, region });
const titled = (handle: string, en: string, it: string): Titled => ({ handle, title: { en, it } });

/** A part of Italy and its regions: the categories below "Regions of Italy". */
export interface Area extends Titled {
  regions: readonly Titled[];
}

export const REGIONS_CATEGORY = titled('regions-of-italy', 'Regions of Italy', "Regioni d'Italia");

export const AREAS_OF_ITALY: readonly Area[] = [
  {
    ...titled('northern-italy', 'Northern Italy', 'Italia settentrionale'),
    regions: [
      titled('piedmont', 'Piedmont', 'Piemonte'),
      titled('liguria', 'Liguria', 'Liguria'),
      titled('lombardy', 'Lombardy', 'Lombardia'),
      titled('trentino-alto-adige', 'Trentino-Alto Adige', 'Trentino-Alto Adige'),
      titled('veneto', 'Veneto', 'Veneto'),
      titled('friuli-venezia-giulia', 'Friuli Venezia Giulia', 'Friuli Venezia Giulia'),
      titled('emilia-romagna', 'Emilia-Romagna', 'Emilia-Romagna'),
    ],
  },
  {
    ...titled('central-italy', 'Central Italy', 'Italia centrale'),
    regions: [
      titled('tuscany', 'Tuscany', 'Toscana'),
      titled('umbria', 'Umbria', 'Umbria'),
      titled('marche', 'Marche', 'Marche'),
      titled('abruzzo', 'Abruzzo', 'Abruzzo'),
    ],
  },
  {
    ...titled('southern-italy', 'Southern Italy and the islands', 'Sud e isole'),
    regions: [
      titled('campania', 'Campania', 'Campania'),
      titled('apulia', 'Apulia', 'Puglia'),
      titled('calabria', 'Calabria', 'Calabria'),
      titled('sicily', 'Sicily', 'Sicilia'),
      titled('sardinia', 'Sardinia', 'Sardegna'),
    ],
  },
];

const REGIONS_OF_ITALY: readonly Origin[] = [
  o('Sicily', 'di Sicilia', 'in Sicilia', 'sicily'),
  o('Apulia', 'di Puglia', 'in Puglia', 'apulia'),
  o('Tuscany', 'della Toscana', 'in Toscana', 'tuscany'),
  o('Piedmont', 'del Piemonte', 'in Piemonte', 'piedmont'),
  o('Liguria', 'della Liguria', 'in Liguria', 'liguria'),
  o('Umbria', "dell'Umbria", 'in Umbria', 'umbria'),
  o('Campania', 'della Campania', 'in Campania', 'campania'),
  o('Sardinia', 'della Sardegna', 'in Sardegna', 'sardinia'),
  o('Calabria', 'della Calabria', 'in Calabria', 'calabria'),
  o('Emilia', "dell'Emilia", 'in Emilia', 'emilia-romagna'),
  o('the Veneto', 'del Veneto', 'in Veneto', 'veneto'),
  o('the Marche', 'delle Marche', 'nelle Marche', 'marche'),
  o('Abruzzo', "dell'Abruzzo", 'in Abruzzo', 'abruzzo'),
  o('Lombardy', 'della Lombardia', 'in Lombardia', 'lombardy'),
  o('Trentino', 'del Trentino', 'in Trentino', 'trentino-alto-adige'),
];

const CRAFT_TOWNS: readonly Origin[] = [
  o('Deruta', 'di Deruta', 'a Deruta', 'umbria'),
  o('Vietri sul Mare', 'di Vietri sul Mare', 'a Vietri sul Mare', 'campania'),
  o('Caltagirone', 'di Caltagirone', 'a Caltagirone', 'sicily'),
  o('Faenza', 'di Faenza', 'a Faenza', 'emilia-romagna'),
  o('Grottaglie', 'di Grottaglie', 'a Grottaglie', 'apulia'),
  o('Biella', 'di Biella', 'a Biella', 'piedmont'),
  o('Arezzo', 'di Arezzo', 'ad Arezzo', 'tuscany'),
  o('Como', 'di Como', 'a Como', 'lombardy'),
  o('Florence', 'di Firenze', 'a Firenze', 'tuscany'),
  o('Maniago', 'di Maniago', 'a Maniago', 'friuli-venezia-giulia'),
  o('Omegna', 'di Omegna', 'a Omegna', 'piedmont'),
];

const FOOD_MAKER: Text = { en: 'family producer', it: 'un piccolo produttore' };
const CRAFT_MAKER: Text = { en: 'family workshop', it: 'una bottega artigiana' };

const SIZE_SMALL = { name: 'Size', values: [['90 g', 1], ['180 g', 1.8], ['280 g', 2.5], ['500 g', 4.2]] } as const;
const SIZE_WEIGHT = { name: 'Size', values: [['100 g', 0.5], ['250 g', 1], ['500 g', 1.85], ['1 kg', 3.4], ['3 kg', 9.5]] } as const;
const PACK = { name: 'Pack', values: [['Single', 1], ['Pack of 3', 2.8], ['Pack of 6', 5.4], ['Case of 12', 10]] } as const;
const COLOUR = {
  name: 'Colour',
  values: [['Natural', 1], ['White', 1], ['Cobalt Blue', 1], ['Sage Green', 1], ['Terracotta', 1], ['Lemon Yellow', 1], ['Charcoal', 1]],
} as const;
const GOODS_SIZE = { name: 'Size', values: [['Small', 0.7], ['Medium', 1], ['Large', 1.4], ['Extra Large', 1.8]] } as const;

export const CATEGORIES: readonly Category[] = [
  {
    ...titled('coffee', 'Coffee', 'Caffè'),
    code: 'COF',
    nouns: [
      n('Espresso Blend', 'Miscela espresso', 'f'),
      n('Moka Coffee', 'Caffè per moka', 'm'),
      n('Single-Origin Coffee', 'Caffè monorigine', 'm'),
      n('Decaf Coffee', 'Caffè decaffeinato', 'm'),
      n('Coffee Beans', 'Caffè in grani', 'm'),
    ],
    adjectives: [
      adj('Organic', 'biologico', 'organic'), adj('Artisan', 'artigianale'), adj('Classic', 'classico'),
      adj('Intense', 'intenso'), adj('Smooth', 'morbido'), adj('Fair Trade', 'equosolidale', 'fair-trade'),
      fixed('Dark Roast', 'a tostatura scura'), fixed('Medium Roast', 'a tostatura media'),
    ],
    origins: REGIONS_OF_ITALY,
    maker: { en: 'family roastery', it: 'una piccola torrefazione' },
    options: [
      SIZE_WEIGHT,
      { name: 'Grind', values: [['Whole bean', 1], ['Ground for moka', 1], ['Ground for espresso', 1], ['Ground for filter', 1]] },
      PACK,
    ],
    basePrice: [690, 1490],
    blurbs: [
      { en: 'Roasted slowly in small batches for a dense crema and notes of cocoa.', it: 'Tostato lentamente in piccoli lotti per una crema densa e note di cacao.' },
      { en: 'Sweet and round, with little acidity and a long finish.', it: 'Dolce e rotondo, poco acido e con un finale lungo.' },
      { en: 'A blend for the moka pot at breakfast and the espresso after lunch.', it: 'Una miscela per la moka a colazione e per il caffè dopo pranzo.' },
    ],
  },
  {
    ...titled('olive-oil-and-olives', 'Olive oil and olives', 'Olio e olive'),
    code: 'OIL',
    nouns: [
      n('Extra Virgin Olive Oil', "Olio extravergine d'oliva", 'm'),
      n('Olive Oil', "Olio d'oliva", 'm'),
      n('Lemon Olive Oil', "Olio d'oliva al limone", 'm'),
      n('Olives in Brine', 'Olive in salamoia', 'fp'),
      n('Olive Paste', 'Paté di olive', 'm'),
    ],
    adjectives: [
      adj('Organic', 'biologico', 'organic'), adj('Fruity', 'fruttato'), adj('Delicate', 'delicato'),
      adj('Robust', 'robusto'), adj('Cold-Pressed', 'spremuto a freddo', 'cold-pressed'), adj('Single-Variety', 'monovarietale'),
      adj('Unfiltered', ['non filtrato', 'non filtrata', 'non filtrati', 'non filtrate'], 'unfiltered'),
      fixed('Early Harvest', 'di prima raccolta', 'early-harvest'),
    ],
    origins: REGIONS_OF_ITALY,
    maker: { en: 'family olive mill', it: 'un piccolo frantoio' },
    options: [
      { name: 'Format', values: [['Bottle 250 ml', 0.6], ['Bottle 500 ml', 1], ['Bottle 750 ml', 1.4], ['Tin 3 l', 4.5], ['Tin 5 l', 7]] },
      PACK,
      { name: 'Harvest', values: [['2025 harvest', 1], ['2026 harvest', 1.05]] },
    ],
    basePrice: [890, 2490],
    blurbs: [
      { en: 'Cold-extracted within hours of picking, with a grassy nose and a peppery finish.', it: 'Estratto a freddo poche ore dopo la raccolta, con profumo erbaceo e finale piccante.' },
      { en: 'Made for drizzling raw over soups, grilled vegetables and bread.', it: 'Da usare a crudo su zuppe, verdure grigliate e pane.' },
      { en: 'Harvested by hand from old trees on terraced hillsides.', it: 'Raccolto a mano da vecchi alberi coltivati su terrazzamenti.' },
    ],
  },
  {
    ...titled('pasta-rice-and-grains', 'Pasta, rice and grains', 'Pasta, riso e cereali'),
    code: 'PAS',
    nouns: [
      n('Spaghetti', 'Spaghetti', 'mp'), n('Paccheri', 'Paccheri', 'mp'), n('Fusilli', 'Fusilli', 'mp'),
      n('Tagliatelle', 'Tagliatelle', 'fp'), n('Orecchiette', 'Orecchiette', 'fp'),
      n('Risotto Rice', 'Riso per risotto', 'm'), n('Polenta', 'Polenta', 'f'), n('Pearled Spelt', 'Farro perlato', 'm'),
    ],
    adjectives: [
      adj('Bronze-Cut', 'trafilato al bronzo', 'bronze-cut'), adj('Organic', 'biologico', 'organic'), adj('Wholewheat', 'integrale', 'wholewheat'),
      adj('Artisan', 'artigianale'), adj('Stone-Ground', 'macinato a pietra', 'stone-ground'), adj('Slow-Dried', 'essiccato lentamente'),
      fixed('Ancient-Grain', 'di grani antichi'), fixed('Gluten-Free', 'senza glutine', 'gluten-free'),
    ],
    origins: REGIONS_OF_ITALY,
    maker: FOOD_MAKER,
    options: [SIZE_WEIGHT, PACK],
    basePrice: [290, 990],
    blurbs: [
      { en: 'Durum wheat and spring water, dried slowly at low temperature.', it: 'Grano duro e acqua di sorgente, essiccati lentamente a bassa temperatura.' },
      { en: 'A rough surface that holds every sauce.', it: 'Una superficie ruvida che trattiene ogni sugo.' },
      { en: 'Cooks evenly and stays firm to the bite.', it: 'Cuoce in modo uniforme e resta al dente.' },
    ],
  },
  {
    ...titled('cheese', 'Cheese', 'Formaggi'),
    code: 'FOR',
    nouns: [
      n('Pecorino', 'Pecorino', 'm'), n('Caciotta', 'Caciotta', 'f'), n('Provolone', 'Provolone', 'm'),
      n('Asiago', 'Asiago', 'm'), n('Taleggio', 'Taleggio', 'm'), n('Fontina', 'Fontina', 'f'),
      n('Parmigiano Reggiano', 'Parmigiano Reggiano', 'm'), n('Blue Cheese', 'Erborinato', 'm'),
    ],
    adjectives: [
      adj('Aged', 'stagionato'), adj('Extra-Aged', 'stravecchio'), adj('Smoked', 'affumicato', 'smoked'),
      adj('Truffled', 'tartufato', 'truffle'), adj('Mild', 'dolce'), adj('Sharp', 'piccante'), adj('Organic', 'biologico', 'organic'),
      fixed('Mountain', 'di montagna'), fixed('Raw-Milk', 'a latte crudo', 'raw-milk'),
    ],
    origins: REGIONS_OF_ITALY,
    maker: { en: 'family dairy', it: 'un piccolo caseificio' },
    options: [
      SIZE_WEIGHT,
      { name: 'Ageing', values: [['12 months', 1], ['18 months', 1.2], ['24 months', 1.45], ['36 months', 1.8]] },
      { name: 'Cut', values: [['Wedge', 1], ['Grated', 1.05], ['Sliced', 1.1]] },
    ],
    basePrice: [490, 2990],
    blurbs: [
      { en: 'Cut from the wheel and vacuum packed the same day.', it: 'Tagliato dalla forma e confezionato sottovuoto in giornata.' },
      { en: 'Serve at room temperature with honey, pears or a glass of red.', it: 'Da servire a temperatura ambiente con miele, pere o un bicchiere di rosso.' },
      { en: 'Made with milk from herds grazing on summer pastures.', it: 'Prodotto con latte di mandrie al pascolo estivo.' },
    ],
  },
  {
    ...titled('charcuterie', 'Charcuterie', 'Salumi'),
    code: 'SAL',
    nouns: [
      n('Prosciutto', 'Prosciutto', 'm'), n('Salame', 'Salame', 'm'), n('Coppa', 'Coppa', 'f'),
      n('Pancetta', 'Pancetta', 'f'), n('Speck', 'Speck', 'm'), n('Bresaola', 'Bresaola', 'f'),
      n('Mortadella', 'Mortadella', 'f'), n('Guanciale', 'Guanciale', 'm'),
    ],
    adjectives: [
      adj('Aged', 'stagionato'), adj('Smoked', 'affumicato', 'smoked'), adj('Spicy', 'piccante', 'spicy'), adj('Sweet', 'dolce'),
      adj('Hand-Tied', 'legato a mano', 'handmade'), adj('Organic', 'biologico', 'organic'),
      fixed('Peppered', 'al pepe nero'), fixed('Fennel', 'al finocchietto'), fixed('Black Pig', 'di suino nero'),
    ],
    origins: REGIONS_OF_ITALY,
    maker: { en: 'family salumificio', it: 'un piccolo salumificio' },
    options: [
      SIZE_WEIGHT,
      { name: 'Cut', values: [['Whole', 1], ['Sliced', 1.15], ['Diced', 1.1]] },
      PACK,
    ],
    basePrice: [450, 3490],
    blurbs: [
      { en: 'Cured slowly in cool cellars with nothing but salt and spices.', it: 'Stagionato lentamente in cantine fresche, solo con sale e spezie.' },
      { en: 'Slice it thin and serve it with bread and a glass of Lambrusco.', it: 'Da affettare sottile e servire con pane e un bicchiere di Lambrusco.' },
      { en: 'From pigs raised outdoors and fed on cereals.', it: "Da suini allevati all'aperto e nutriti con cereali." },
    ],
  },
  {
    ...titled('sauces-and-preserves', 'Sauces and preserves', 'Sughi e conserve'),
    code: 'CON',
    nouns: [
      n('Tomato Sauce', 'Sugo di pomodoro', 'm'), n('Basil Pesto', 'Pesto al basilico', 'm'),
      n('Tomato Passata', 'Passata di pomodoro', 'f'), n('Artichokes in Olive Oil', "Carciofini sott'olio", 'mp'),
      n('Sun-Dried Tomatoes', 'Pomodori secchi', 'mp'), n('Fruit Jam', 'Confettura di frutta', 'f'),
      n('Honey', 'Miele', 'm'), n('Truffle Sauce', 'Salsa al tartufo', 'f'), n('Ragù', 'Ragù', 'm'),
    ],
    adjectives: [
      adj('Organic', 'biologico', 'organic'), adj('Artisan', 'artigianale'), adj('Traditional', 'tradizionale'),
      adj('Spicy', 'piccante', 'spicy'), adj('Wild', 'selvatico'), adj('Slow-Cooked', 'cotto lentamente'),
      fixed('Homestyle', 'della casa'),
    ],
    origins: REGIONS_OF_ITALY,
    maker: FOOD_MAKER,
    options: [SIZE_SMALL, PACK],
    basePrice: [350, 1490],
    blurbs: [
      { en: 'Jarred within hours of harvest, with no preservatives.', it: 'Invasettato poche ore dopo la raccolta, senza conservanti.' },
      { en: 'A family recipe, made in small batches in copper pans.', it: 'Una ricetta di famiglia, preparata in piccoli lotti in pentole di rame.' },
      { en: 'Keep refrigerated once opened and use within a week.', it: "Conservare in frigorifero dopo l'apertura e consumare entro una settimana." },
    ],
  },
  {
    ...titled('sweets', 'Sweets', 'Dolci'),
    code: 'DOL',
    nouns: [
      n('Panettone', 'Panettone', 'm'), n('Pandoro', 'Pandoro', 'm'), n('Cantucci', 'Cantucci', 'mp'),
      n('Amaretti', 'Amaretti', 'mp'), n('Nougat', 'Torrone', 'm'), n('Hazelnut Spread', 'Crema di nocciole', 'f'),
      n('Chocolate Bar', 'Tavoletta di cioccolato', 'f'), n('Biscotti', 'Biscotti', 'mp'),
    ],
    adjectives: [
      adj('Artisan', 'artigianale'), adj('Classic', 'classico'), adj('Soft', 'morbido'), adj('Crunchy', 'croccante'),
      adj('Organic', 'biologico', 'organic'), adj('Traditional', 'tradizionale'),
      fixed('Dark Chocolate', 'al cioccolato fondente'), fixed('Pistachio', 'al pistacchio'), fixed('Almond', 'alle mandorle'),
    ],
    origins: REGIONS_OF_ITALY,
    maker: { en: 'family pastry shop', it: 'una piccola pasticceria' },
    options: [
      { name: 'Size', values: [['100 g', 0.4], ['200 g', 0.7], ['500 g', 1], ['750 g', 1.4], ['1 kg', 1.8]] },
      PACK,
    ],
    basePrice: [390, 3490],
    blurbs: [
      { en: 'Baked in small batches with Italian butter and free-range eggs.', it: 'Sfornato in piccoli lotti con burro italiano e uova di galline allevate a terra.' },
      { en: 'The perfect end to a long Sunday lunch.', it: 'Il finale perfetto di un lungo pranzo della domenica.' },
      { en: 'Wrapped by hand and ready to give as a present.', it: 'Incartato a mano e pronto da regalare.' },
    ],
  },
  {
    ...titled('ceramics', 'Ceramics', 'Ceramiche'),
    code: 'CER',
    nouns: [
      n('Espresso Cups', 'Tazzine da caffè', 'fp'), n('Serving Bowl', 'Insalatiera', 'f'),
      n('Dinner Plates', 'Piatti piani', 'mp'), n('Olive Oil Cruet', 'Oliera', 'f'), n('Pitcher', 'Brocca', 'f'),
      n('Vase', 'Vaso', 'm'), n('Serving Platter', 'Piatto da portata', 'm'), n('Mug', 'Tazza', 'f'),
    ],
    adjectives: [
      adj('Hand-Painted', 'dipinto a mano', 'handmade'), adj('Glazed', 'smaltato'), adj('Rustic', 'rustico'), adj('Classic', 'classico'),
      fixed('Majolica', 'in maiolica'), fixed('Terracotta', 'in terracotta'), fixed('Stoneware', 'in gres'),
    ],
    origins: CRAFT_TOWNS,
    maker: CRAFT_MAKER,
    options: [
      COLOUR,
      GOODS_SIZE,
      { name: 'Pattern', values: [['Lemons', 1], ['Olive Branch', 1], ['Geometric', 1], ['Plain', 0.85]] },
    ],
    basePrice: [1900, 8900],
    blurbs: [
      { en: 'Thrown on the wheel and painted by hand, so no two pieces are alike.', it: 'Tornito e dipinto a mano: non esistono due pezzi uguali.' },
      { en: 'Dishwasher safe; not suitable for the oven.', it: 'Lavabile in lavastoviglie; non adatto al forno.' },
      { en: 'Fired twice for a deep, glossy glaze.', it: 'Cotto due volte per uno smalto intenso e brillante.' },
    ],
  },
  {
    ...titled('table-linen', 'Table linen', 'Tessili per la tavola'),
    code: 'LIN',
    nouns: [
      n('Tablecloth', 'Tovaglia', 'f'), n('Apron', 'Grembiule', 'm'), n('Tea Towels', 'Strofinacci', 'mp'),
      n('Napkins', 'Tovaglioli', 'mp'), n('Table Runner', 'Runner da tavola', 'm'), n('Throw', 'Plaid', 'm'),
    ],
    adjectives: [
      adj('Stonewashed', 'lavato a pietra'), adj('Embroidered', 'ricamato'), adj('Classic', 'classico'),
      fixed('Linen', 'in lino'), fixed('Striped', 'a righe'), fixed('Hemstitched', 'con orlo a giorno'), fixed('Cotton', 'in cotone'),
    ],
    origins: CRAFT_TOWNS,
    maker: CRAFT_MAKER,
    options: [COLOUR, GOODS_SIZE, { name: 'Set', values: [['Single', 1], ['Set of 2', 1.9], ['Set of 4', 3.6], ['Set of 6', 5.2]] }],
    basePrice: [1900, 9900],
    blurbs: [
      { en: 'Woven on shuttle looms and softened with a stone wash.', it: 'Tessuto su telai a navetta e ammorbidito con un lavaggio a pietra.' },
      { en: 'Machine washable at 40 °C; gets softer with every wash.', it: 'Lavabile in lavatrice a 40 °C; diventa più morbido a ogni lavaggio.' },
      { en: 'Pure European flax, spun and dyed in Italy.', it: 'Puro lino europeo, filato e tinto in Italia.' },
    ],
  },
  {
    ...titled('kitchen-tools', 'Kitchen tools', 'Utensili da cucina'),
    code: 'UTE',
    nouns: [
      n('Cutting Board', 'Tagliere', 'm'), n('Moka Pot', 'Caffettiera moka', 'f'), n('Rolling Pin', 'Mattarello', 'm'),
      n('Pasta Drying Rack', 'Stendipasta', 'm'), n('Kitchen Knife', 'Coltello da cucina', 'm'),
      n('Cheese Grater', 'Grattugia', 'f'), n('Pizza Peel', 'Pala per pizza', 'f'), n('Gnocchi Board', 'Rigagnocchi', 'm'),
    ],
    adjectives: [
      adj('Handcrafted', 'artigianale', 'handmade'), adj('Professional', 'professionale'), adj('Classic', 'classico'),
      fixed('Olive Wood', "in legno d'ulivo"), fixed('Beechwood', 'in faggio'), fixed('Stainless Steel', 'in acciaio inox'),
      fixed('Aluminium', 'in alluminio'), fixed('Copper', 'in rame'),
    ],
    origins: CRAFT_TOWNS,
    maker: CRAFT_MAKER,
    options: [
      GOODS_SIZE,
      { name: 'Finish', values: [['Natural', 1], ['Oiled', 1.05], ['Polished', 1.15]] },
      { name: 'Colour', values: [['Silver', 1], ['Red', 1.05], ['Black', 1.05]] },
    ],
    basePrice: [990, 8900],
    blurbs: [
      { en: 'Built to be used every day and handed down.', it: 'Fatto per essere usato ogni giorno e passato di generazione in generazione.' },
      { en: 'Hand wash only and dry straight away.', it: 'Lavare solo a mano e asciugare subito.' },
      { en: 'Finished by hand and inspected piece by piece.', it: 'Rifinito a mano e controllato pezzo per pezzo.' },
    ],
  },
];

export const CLOSINGS: readonly Text[] = [
  { en: 'Ships in recyclable packaging.', it: 'Spedito in imballaggi riciclabili.' },
  { en: 'A favourite of our customers in Milan.', it: 'Uno dei preferiti dai nostri clienti di Milano.' },
  { en: 'Limited production: when it is gone, it is gone.', it: 'Produzione limitata: quando finisce, è finito.' },
  { en: 'Makes a thoughtful gift.', it: 'Un regalo sempre apprezzato.' },
];

/** A collection, and the codes of the categories whose products it may hold. */
export interface CollectionSpec extends Titled {
  codes: readonly string[];
}

const ALL_CODES = CATEGORIES.map((category) => category.code);
const FOOD_CODES = ['COF', 'OIL', 'PAS', 'FOR', 'SAL', 'CON', 'DOL'];
const collection = (handle: string, en: string, it: string, codes: readonly string[]): CollectionSpec => ({ ...titled(handle, en, it), codes });

export const COLLECTIONS: readonly CollectionSpec[] = [
  collection('italian-classics', 'Italian classics', 'Classici italiani', ALL_CODES),
  collection('christmas-table', 'The Christmas table', 'La tavola di Natale', ['DOL', 'SAL', 'FOR', 'CER', 'LIN']),
  collection('easter-basket', 'The Easter basket', 'Il cesto di Pasqua', ['DOL', 'SAL', 'FOR']),
  collection('summer-kitchen', 'Summer kitchen', "Cucina d'estate", ['OIL', 'CON', 'PAS', 'CER', 'LIN']),
  collection('aperitivo', 'Aperitivo', 'Aperitivo', ['SAL', 'FOR', 'OIL', 'CON']),
  collection('italian-breakfast', 'Italian breakfast', 'La colazione italiana', ['COF', 'DOL', 'CON', 'CER']),
  collection('coffee-bar-at-home', 'The coffee bar at home', 'Il bar in casa', ['COF', 'CER', 'UTE']),
  collection('cheese-board', 'The cheese board', 'Il tagliere di formaggi', ['FOR', 'CON', 'UTE']),
  collection('pasta-night', 'Pasta night', 'Serata pasta', ['PAS', 'CON', 'FOR', 'UTE']),
  collection('sunday-lunch', 'Sunday lunch', 'Il pranzo della domenica', ['PAS', 'SAL', 'FOR', 'DOL', 'CER', 'LIN']),
  collection('picnic', 'Picnic', 'Picnic', ['SAL', 'FOR', 'DOL', 'LIN']),
  collection('new-harvest', 'New harvest', 'Nuovo raccolto', ['OIL']),
  collection('home-baking', 'Home baking', 'Dolci fatti in casa', ['DOL', 'UTE']),
  collection('handmade-for-the-table', 'Handmade for the table', 'Fatto a mano per la tavola', ['CER', 'LIN']),
  collection('gifts-for-cooks', 'Gifts for cooks', 'Regali per chi cucina', ['UTE', 'OIL', 'LIN']),
  collection('winter-warmers', 'Winter warmers', "Piatti d'inverno", ['CON', 'PAS', 'SAL', 'FOR']),
  collection('small-producers', 'Small producers', 'Piccoli produttori', FOOD_CODES),
  collection('best-sellers', 'Best sellers', 'I più venduti', ALL_CODES),
  collection('new-arrivals', 'New arrivals', 'Novità', ALL_CODES),
  collection('last-chance', 'Last chance', 'Ultime occasioni', ALL_CODES),
];

/** Tags any product may carry, beside the one its adjective gives (`Adjective.tag`). */
export const GENERAL_TAGS: readonly string[] = [
  'gift',
  'new',
  'best-seller',
  'limited-edition',
  'small-batch',
  'family-run',
  'award-winning',
  'eco-packaging',
  'seasonal',
  'staff-pick',
  'online-exclusive',
  'back-in-stock',
];

/** Describes each of a product's images, in order (a product has at most this many). */
export const IMAGE_VIEWS: readonly string[] = ['front view', 'close-up', 'on the table'];
