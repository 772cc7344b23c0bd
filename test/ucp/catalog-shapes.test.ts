import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CatalogReadError } from '../../src/catalog/read-model/read-errors.js';
import { UcpOutcome, UcpProtocolError } from '../../src/ucp/errors.js';
import type { UcpSearchRequest } from '../../src/ucp/shapes/catalog-schemas.js';
import { UcpCatalog, type UcpProduct } from '../../src/ucp/shapes/catalog.js';
import { product, variant } from '../support/catalog-builder.js';
import { useTestApp } from '../support/test-app.js';
import { ucpValidator } from '../support/ucp-validator.js';

const { validator, skip } = await ucpValidator();

/**
 * The catalog's UCP shapes over the demo catalog, straight from the service (the REST
 * and MCP surfaces are tested in catalog-rest.test.ts and catalog-mcp.test.ts): every
 * answer is checked against the UCP release's own schemas, and its products against
 * what /public/v1 serves in the same market.
 */

const SEARCH = 'dev.ucp.shopping.catalog.search';
const LOOKUP = 'dev.ucp.shopping.catalog.lookup';

function envelope(capability: string, status?: 'error') {
  return { version: '2026-04-08', ...(status && { status }), capabilities: { [capability]: [{ version: '2026-04-08' }] } };
}

/** Checks an answer in its envelope; get_product's outcome (UcpOutcome) is an answer whose status is `error`. */
function assertValid(operation: string, answer: object): void {
  const capability = operation === 'search_catalog' ? SEARCH : LOOKUP;
  const outcome = answer instanceof UcpOutcome;
  const payload = outcome ? { messages: answer.messages } : answer;
  const result = validator!.validateRest(operation, 200, { ucp: envelope(capability, outcome ? 'error' : undefined), ...payload });
  assert.deepEqual(result.errors, [], `${operation}: ${JSON.stringify(payload).slice(0, 500)}`);
  assert.ok(result.valid);
}

describe('UCP catalog shapes', { skip }, () => {
  const testApp = useTestApp();
  const ucp = () => new UcpCatalog(testApp.app.catalog);

  /** Every page of a search, checked against the release's schema. */
  async function searchAll(request: Parameters<UcpCatalog['search']>[0]): Promise<UcpProduct[]> {
    const products: UcpProduct[] = [];
    let cursor: string | undefined;
    do {
      const answer = await ucp().search({ ...request, pagination: { limit: 7, ...(cursor && { cursor }) } });
      assertValid('search_catalog', answer);
      products.push(...answer.products);
      cursor = answer.pagination.cursor;
      assert.equal(answer.pagination.has_next_page, cursor !== undefined);
    } while (cursor);
    return products;
  }

  /** /public/v1's products with a price in the market, in its order. */
  async function publicProducts(query: string): Promise<any[]> {
    const products: any[] = [];
    let cursor: string | null = null;
    do {
      const priced = query.includes('price_min') ? '' : 'price_min=0&';
      const page: any = (await testApp.client.get(`/public/v1/products?${priced}limit=20&${query}${cursor ? `&cursor=${cursor}` : ''}`)).data;
      products.push(...page.products);
      cursor = page.next_cursor;
    } while (cursor);
    return products;
  }

  /** A UCP product is /public/v1's product in minor units: same texts, variants, prices and availability. */
  function assertSameProduct(ucpProduct: UcpProduct, served: any, digits = 2): void {
    assert.equal(ucpProduct.id, served.id);
    assert.equal(ucpProduct.title, served.title);
    assert.equal(ucpProduct.url, served.url);
    assert.equal(ucpProduct.description.plain, served.description ?? '');
    assert.deepEqual(ucpProduct.categories?.map((category) => category.value) ?? [], served.categories.map((category: any) => category.handle));
    const minor = (major: number) => Math.round(major * 10 ** digits);
    assert.deepEqual(ucpProduct.price_range, {
      min: { amount: minor(served.price_range.minimum), currency: served.price_range.currency },
      max: { amount: minor(served.price_range.maximum), currency: served.price_range.currency },
    });
    const priced = served.variants.filter((variant: any) => variant.price !== null);
    assert.deepEqual(
      ucpProduct.variants.map((variant) => [variant.id, variant.sku, variant.price, variant.availability]).sort(),
      priced
        .map((variant: any) => [variant.id, variant.sku, { amount: minor(variant.price.amount), currency: variant.price.currency }, { available: variant.availability.purchasable, status: variant.availability.status }])
        .sort(),
    );
  }

  describe('search', () => {
    for (const country of ['IT', 'DE', 'GB', 'US', 'CH']) {
      it(`shows every product priced in ${country} as /public/v1 does, in its order, page after page`, async () => {
        const products = await searchAll({ filters: { price: { min: 0 } }, context: { address_country: country } });
        const served = await publicProducts(`country=${country}`);
        assert.ok(served.length > 40);
        assert.deepEqual(products.map((product) => product.id), served.map((product) => product.id));
        products.forEach((product, index) => assertSameProduct(product, served[index]));
      });
    }

    it('leaves out the products without a price in the market (UCP requires one)', async () => {
      const spelt = (await testApp.client.get('/public/v1/products/pearled-spelt-garfagnana?country=US')).data.product;
      assert.equal(spelt.price_range, null);
      const inUs = await searchAll({ query: 'spelt', context: { address_country: 'US' } });
      assert.deepEqual(inUs, []);
      const inItaly = await searchAll({ query: 'spelt' });
      assert.deepEqual(inItaly.map((product) => product.handle), ['pearled-spelt-garfagnana']);
    });

    it('searches by query with filters as /public/v1 does: categories with their subtrees, price in minor units, available', async () => {
      const products = await searchAll({
        query: 'linen',
        filters: { categories: ['kitchen-and-table'], price: { min: 4000, max: 9000 }, available: true },
        context: { address_country: 'US' },
      });
      const served = await publicProducts('country=US&q=linen&category=kitchen-and-table&price_min=40&price_max=90&available=true');
      assert.ok(served.length > 0);
      assert.deepEqual(products.map((product) => product.id), served.map((product) => product.id));
      for (const product of products) {
        assert.ok(product.variants.length > 0);
        for (const variant of product.variants) {
          assert.ok(variant.price.amount >= 4000 && variant.price.amount <= 9000, `${variant.sku} ${variant.price.amount}`);
          assert.equal(variant.availability.available, true);
        }
      }
    });

    it('puts the featured variant (the first that can be bought) first', async () => {
      const [tablecloth] = await searchAll({ query: 'tuscan linen tablecloth', filters: { categories: ['table-linen'] } });
      assert.equal(tablecloth!.handle, 'tuscan-linen-tablecloth');
      assert.deepEqual(tablecloth!.variants.map((variant) => variant.sku).slice(0, 3), ['BV-LIN-TOV-NAT-150', 'BV-LIN-TOV-NAT-250', 'BV-LIN-TOV-NAT-300']);
      const [truffle] = await searchAll({ query: 'white truffle', filters: { available: false } });
      assert.deepEqual(truffle!.variants.map((variant) => [variant.sku, variant.availability.available]), [['BV-TAR-BIA-20', false], ['BV-TAR-BIA-50', false]]);
    });

    it('reports categories the catalog does not have, and matches nothing with them alone', async () => {
      const none = await ucp().search({ filters: { categories: ['Footwear'] } });
      assertValid('search_catalog', none);
      assert.deepEqual(none.products, []);
      assert.deepEqual(none.pagination, { has_next_page: false, total_count: 0 });
      assert.deepEqual(none.messages?.map((message) => [message.type, message.code]), [['info', 'unknown_category']]);
      assert.match(none.messages![0]!.content, /Footwear/);
      const some = await ucp().search({ filters: { categories: ['Footwear', 'ESPRESSO'] }, pagination: { limit: 20 } });
      assertValid('search_catalog', some);
      assert.ok(some.products.length > 0);
      assert.ok(some.products.every((product) => product.categories?.some((category) => category.value === 'espresso')));
    });

    it('applies a price filter only in the market currency, and says when it does not', async () => {
      const inEuros = await ucp().search({ filters: { price: { max: 500 } }, context: { currency: 'EUR' }, pagination: { limit: 20 } });
      assertValid('search_catalog', inEuros);
      assert.ok(inEuros.products.length > 0);
      assert.ok(inEuros.products.every((product) => product.variants.every((variant) => variant.price.amount <= 500)));
      assert.equal(inEuros.messages, undefined);
      const inDollars = await ucp().search({ filters: { price: { max: 500 } }, context: { address_country: 'IT', currency: 'USD' }, pagination: { limit: 20 } });
      assertValid('search_catalog', inDollars);
      assert.ok(inDollars.products.some((product) => product.variants.some((variant) => variant.price.amount > 500)));
      assert.deepEqual(inDollars.messages?.map((message) => message.code), ['price_filter_ignored']);
      assert.equal(inDollars.products[0]!.price_range.min.currency, 'EUR');
    });

    it('reports filters it does not support, and refuses a search with neither a query word nor a supported filter', async () => {
      // UCP's filters are open: members of other businesses' filters are allowed.
      const answer = await ucp().search({ query: 'olive', filters: { brand: 'Coratina' } as UcpSearchRequest['filters'] });
      assertValid('search_catalog', answer);
      assert.ok(answer.products.length > 0);
      assert.deepEqual(answer.messages?.map((message) => message.code), ['filter_ignored']);
      for (const request of [{}, { query: ' ,. ' }, { filters: {} }, { filters: { brand: 'x' } }, { pagination: { limit: 5 } }] as UcpSearchRequest[]) {
        await assert.rejects(ucp().search(request), (error: unknown) => error instanceof UcpProtocolError && error.statusCode === 400 && error.code === 'invalid_request');
      }
    });

    it('pages with the catalog cursor: limit clamped to 20, total_count, a cursor only for its own search', async () => {
      const first = await ucp().search({ filters: { categories: ['pantry'] }, pagination: { limit: 500 } });
      assertValid('search_catalog', first);
      assert.equal(first.products.length, 20);
      assert.equal(first.pagination.has_next_page, true);
      const served = await publicProducts('category=pantry');
      assert.equal(first.pagination.total_count, served.length);
      const second = await ucp().search({ filters: { categories: ['pantry'] }, pagination: { cursor: first.pagination.cursor! } });
      assertValid('search_catalog', second);
      assert.deepEqual(second.products.map((product) => product.id), served.slice(20, 30).map((product) => product.id));
      await assert.rejects(
        ucp().search({ filters: { categories: ['coffee'] }, pagination: { cursor: first.pagination.cursor! } }),
        (error: unknown) => error instanceof CatalogReadError && error.refusal.kind === 'invalid_cursor',
      );
      await assert.rejects(
        ucp().search({ query: 'olive', filters: { price: { min: 900, max: 100 } } }),
        (error: unknown) => error instanceof CatalogReadError && error.refusal.kind === 'inverted_price_range',
      );
    });
  });

  describe('context', () => {
    it('picks the market from the country, else from the currency as a cart in it is priced, and the locale from the language', async () => {
      const coratina = async (context: object, acceptLanguage?: string) => {
        const answer = await ucp().search({ query: 'coratina', context }, acceptLanguage);
        assertValid('search_catalog', answer);
        return { product: answer.products[0]!, messages: answer.messages };
      };
      const inGermany = await coratina({ address_country: 'de' });
      assert.deepEqual(inGermany.product.price_range.min, { amount: 1390, currency: 'EUR' });
      assert.equal(inGermany.messages, undefined);
      assert.deepEqual((await coratina({})).product.price_range.min, { amount: 1290, currency: 'EUR' });
      assert.deepEqual((await coratina({ currency: 'usd' })).product.price_range.min, { amount: 1440, currency: 'USD' });
      assert.deepEqual((await coratina({ address_country: 'GB', currency: 'EUR' })).product.price_range.min, { amount: 1110, currency: 'GBP' });
      assert.match((await coratina({ language: 'it-IT' })).product.title, /Olio/);
      assert.match((await coratina({}, 'it;q=0.9, en;q=0.5')).product.title, /Olio/);
      assert.doesNotMatch((await coratina({ language: 'fr-CA' }, 'it')).product.title, /Olio/);
    });

    it('answers in the default market, saying so, when the context names a market not served', async () => {
      for (const context of [{ address_country: 'JP' }, { address_country: 'Germany' }, { currency: 'JPY' }, { address_country: 'DEU', currency: 'XYZ' }]) {
        const answer = await ucp().search({ query: 'coratina', context });
        assertValid('search_catalog', answer);
        assert.deepEqual(answer.products[0]!.price_range.min, { amount: 1290, currency: 'EUR' });
        assert.deepEqual(answer.messages?.map((message) => [message.type, message.code]), [['info', 'market_fallback']], JSON.stringify(context));
        assert.match(answer.messages![0]!.content, /Prices are for IT, in EUR/);
      }
      const fallsToCurrency = await ucp().search({ query: 'coratina', context: { address_country: 'JP', currency: 'GBP' } });
      assert.deepEqual(fallsToCurrency.products[0]!.price_range.min, { amount: 1110, currency: 'GBP' });
      assert.match(fallsToCurrency.messages![0]!.content, /Prices are for GB, in GBP/);
    });
  });

  describe('lookup', () => {
    it('resolves product ids (featured variant), variant ids and SKUs (exact), each product once, with not_found for the rest', async () => {
      const [apron] = await searchAll({ query: 'linen kitchen apron', filters: { categories: ['table-linen'] } });
      const sageLarge = await testApp.variantId('BV-LIN-GRE-SAG-LXL');
      const answer = ucp().lookup({ ids: [apron!.id, sageLarge, 'BV-LIN-GRE-NAT-SM', 'prod_unknown', apron!.id, 'BV-COF-ESP-250-BEAN'], context: { address_country: 'US' } });
      assertValid('lookup_catalog', answer);
      assert.deepEqual(answer.products.map((product) => product.handle), ['linen-kitchen-apron', 'caffe-espresso-blend']);
      const [apronFound, espresso] = answer.products;
      assert.deepEqual(
        apronFound!.variants.map((variant) => [variant.sku, variant.inputs]),
        [
          ['BV-LIN-GRE-NAT-SM', [{ id: apron!.id, match: 'featured' }, { id: 'BV-LIN-GRE-NAT-SM', match: 'exact' }]],
          ['BV-LIN-GRE-SAG-LXL', [{ id: sageLarge, match: 'exact' }]],
        ],
      );
      assert.deepEqual(espresso!.variants.map((variant) => [variant.sku, variant.price, variant.inputs]), [
        ['BV-COF-ESP-250-BEAN', { amount: 950, currency: 'USD' }, [{ id: 'BV-COF-ESP-250-BEAN', match: 'exact' }]],
      ]);
      assert.deepEqual(answer.messages, [{ type: 'info', code: 'not_found', content: 'prod_unknown' }]);
    });

    it('answers an empty list with a not_found message per identifier when none resolves', () => {
      const answer = ucp().lookup({ ids: ['a', 'b', 'a'] });
      assertValid('lookup_catalog', answer);
      assert.deepEqual(answer, { products: [], messages: [{ type: 'info', code: 'not_found', content: 'a' }, { type: 'info', code: 'not_found', content: 'b' }] });
    });

    it('leaves out what is not sold in the market or not within the filters, saying why', async () => {
      const spelt = (await testApp.client.get('/public/v1/products/pearled-spelt-garfagnana')).data.product;
      const oneKilo = await testApp.variantId('BV-COF-ESP-1000-BEAN');
      const answer = ucp().lookup({ ids: [spelt.id, oneKilo, 'BV-COF-ESP-250-BEAN'], context: { address_country: 'US' }, filters: { price: { max: 2000 } } });
      assertValid('lookup_catalog', answer);
      assert.deepEqual(answer.products.map((product) => product.variants.map((variant) => variant.sku)), [['BV-COF-ESP-250-BEAN']]);
      assert.deepEqual(answer.messages, [
        { type: 'info', code: 'item_unavailable', content: `${spelt.id}: not sold in US (no price in USD).` },
        { type: 'info', code: 'item_unavailable', content: `${oneKilo}: outside the request's filters.` },
      ]);
    });
  });

  describe('get_product', () => {
    const apronId = async () => (await testApp.client.get('/public/v1/products/linen-kitchen-apron')).data.product.id as string;

    it("without selections: the featured variant, its options as the selections, and every value's signals", async () => {
      const answer = ucp().getProduct({ id: await apronId() });
      assertValid('get_product', answer);
      assert.ok('product' in answer);
      const { product } = answer;
      assert.deepEqual(product.selected, [{ name: 'Colour', label: 'Natural' }, { name: 'Size', label: 'S/M' }]);
      assert.deepEqual(product.variants.map((variant) => variant.sku), ['BV-LIN-GRE-NAT-SM']);
      assert.deepEqual(product.options, [
        { name: 'Colour', values: [{ label: 'Natural', available: true, exists: true }, { label: 'Sage', available: true, exists: true }, { label: 'Terracotta', available: true, exists: true }] },
        { name: 'Size', values: [{ label: 'S/M', available: true, exists: true }, { label: 'L/XL', available: true, exists: true }] },
      ]);
    });

    it('narrows to the selections, with signals relative to them: out of stock is available false, exists true', async () => {
      const answer = ucp().getProduct({ id: await apronId(), selected: [{ name: 'Colour', label: 'Terracotta' }] });
      assertValid('get_product', answer);
      assert.ok('product' in answer);
      assert.deepEqual(answer.product.selected, [{ name: 'Colour', label: 'Terracotta' }]);
      assert.deepEqual(answer.product.variants.map((variant) => [variant.sku, variant.availability]), [
        ['BV-LIN-GRE-TER-SM', { available: true, status: 'in_stock' }],
        ['BV-LIN-GRE-TER-LXL', { available: false, status: 'out_of_stock' }],
      ]);
      assert.deepEqual(answer.product.options![1], { name: 'Size', values: [{ label: 'S/M', available: true, exists: true }, { label: 'L/XL', available: false, exists: true }] });
    });

    it('relaxes the lowest-priority selections that match nothing, keeping the higher ones', async () => {
      const id = await apronId();
      const filtered = ucp().getProduct({
        id,
        selected: [{ name: 'Size', label: 'L/XL' }, { name: 'Colour', label: 'Sage' }],
        preferences: ['Colour', 'Size'],
        filters: { price: { max: 4000 } },
      });
      assertValid('get_product', filtered);
      assert.ok('product' in filtered);
      // No L/XL is within 40.00 EUR: Size is dropped, Colour (first in preferences) stays.
      assert.deepEqual(filtered.product.selected, [{ name: 'Colour', label: 'Sage' }]);
      assert.deepEqual(filtered.product.variants.map((variant) => variant.sku), ['BV-LIN-GRE-SAG-SM']);
      assert.deepEqual(filtered.product.options![1]!.values, [{ label: 'S/M', available: true, exists: true }, { label: 'L/XL', available: false, exists: false }]);
      const unknown = ucp().getProduct({ id, selected: [{ name: 'Colour', label: 'Purple' }, { name: 'Size', label: 'L/XL' }, { name: 'Fabric', label: 'Silk' }] });
      assertValid('get_product', unknown);
      assert.ok('product' in unknown);
      assert.deepEqual(unknown.product.selected, [{ name: 'Size', label: 'L/XL' }]);
      assert.deepEqual(unknown.product.variants.map((variant) => variant.sku), ['BV-LIN-GRE-NAT-LXL', 'BV-LIN-GRE-SAG-LXL', 'BV-LIN-GRE-TER-LXL']);
    });

    it('takes a variant id (or SKU) as the selection, first, whatever is selected', async () => {
      const terracottaLarge = await testApp.variantId('BV-LIN-GRE-TER-LXL');
      for (const id of [terracottaLarge, 'BV-LIN-GRE-TER-LXL']) {
        const answer = ucp().getProduct({ id, selected: [{ name: 'Colour', label: 'Sage' }], context: { address_country: 'CH' } });
        assertValid('get_product', answer);
        assert.ok('product' in answer);
        assert.deepEqual(answer.product.selected, [{ name: 'Colour', label: 'Terracotta' }, { name: 'Size', label: 'L/XL' }]);
        assert.deepEqual(answer.product.variants.map((variant) => [variant.id, variant.price]), [[terracottaLarge, { amount: 4120, currency: 'CHF' }]]);
      }
    });

    it("answers UCP's error outcome for an unknown id, and for a product not sold in the market", async () => {
      const unknown = ucp().getProduct({ id: 'prod_nope' });
      assertValid('get_product', unknown);
      assert.deepEqual(unknown, new UcpOutcome([{ type: 'error', code: 'not_found', content: 'Product not found: prod_nope', severity: 'unrecoverable' }]));
      const spelt = (await testApp.client.get('/public/v1/products/pearled-spelt-garfagnana')).data.product;
      const unsold = ucp().getProduct({ id: spelt.id, context: { address_country: 'US' } });
      assertValid('get_product', unsold);
      assert.deepEqual(unsold, new UcpOutcome([{ type: 'error', code: 'item_unavailable', content: `${spelt.id}: not sold in US (no price in USD).`, severity: 'recoverable' }]));
      const sold = ucp().getProduct({ id: spelt.id });
      assertValid('get_product', sold);
      assert.ok('product' in sold && sold.product.selected === undefined && sold.product.options === undefined);
    });

    it('refuses an option named twice in selected', () => {
      assert.throws(
        () => ucp().getProduct({ id: 'x', selected: [{ name: 'Size', label: 'S/M' }, { name: 'Size', label: 'L/XL' }] }),
        (error: unknown) => error instanceof UcpProtocolError && error.code === 'invalid_request' && /Size/.test(error.message),
      );
    });
  });

  describe('a product whose first variant cannot be bought', () => {
    const cups = product('espresso-cups', {
      options: [{ name: 'Colour', values: ['Red', 'Blue'] }],
      variants: [
        variant('CUP-RED', { options: ['Red'], manage_inventory: true, inventory_quantity: 0 }),
        variant('CUP-BLUE', { options: ['Blue'], prices: [{ currency: 'EUR', amount: 1200 }] }),
      ],
    });
    const built = useTestApp({ catalog: [cups] });
    const builtUcp = () => new UcpCatalog(built.app.catalog);

    it('features the first variant that can be bought: first in search and get_product, the one a product id resolves to in lookup', async () => {
      const searched = await builtUcp().search({ query: 'cups' });
      assertValid('search_catalog', searched);
      assert.deepEqual(searched.products[0]!.variants.map((variant) => variant.sku), ['CUP-BLUE', 'CUP-RED']);
      const id = searched.products[0]!.id;
      const looked = builtUcp().lookup({ ids: [id] });
      assertValid('lookup_catalog', looked);
      assert.deepEqual(looked.products[0]!.variants.map((variant) => [variant.sku, variant.inputs]), [['CUP-BLUE', [{ id, match: 'featured' }]]]);
      const detail = builtUcp().getProduct({ id });
      assertValid('get_product', detail);
      assert.ok('product' in detail);
      assert.deepEqual(detail.product.selected, [{ name: 'Colour', label: 'Blue' }]);
      assert.deepEqual(detail.product.options, [{ name: 'Colour', values: [{ label: 'Red', available: false, exists: true }, { label: 'Blue', available: true, exists: true }] }]);
    });
  });
});
