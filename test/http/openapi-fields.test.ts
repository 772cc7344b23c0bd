import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { useTestApp } from '../support/test-app.js';

/**
 * The response components of /openapi.json, each with the only properties an answer may
 * leave out. Every other property is always present, null or not, so it must be
 * `required`: generated clients (openapi-typescript...) type a property that is not as
 * possibly absent.
 */
const RESPONSE_SCHEMAS: Record<string, string[]> = {
  Product: [],
  Variant: [],
  VariantOption: [],
  Price: [],
  PriceRange: [],
  Availability: [],
  MarketContext: [],
  ProductList: [],
  ProductDetail: [],
  PublicApiError: [],
  SandboxKeyResponse: [],
  SandboxDiscovery: [],
  // Set once the cart has them; `status` and `checkout_url` only on a checkout answer.
  SandboxCart: ['shipping_address', 'shipping_option', 'status', 'checkout_url'],
  SandboxCartItem: [],
  SandboxShippingOption: [],
  SandboxShippingOptions: [],
  // Only on errors about a scope, and on those with a Retry-After.
  SandboxError: ['scope', 'retry_after'],
};

/** Always present, and null when there is nothing to say. */
const NULLABLE: Record<string, string[]> = {
  Product: ['description', 'thumbnail', 'price_range'],
  Variant: ['sku', 'display_name', 'price'],
  ProductList: ['next_cursor'],
};

describe('the types /openapi.json gives the fields of its answers', () => {
  const testApp = useTestApp();
  let fetched: any;
  const document = async () => (fetched ??= (await testApp.client.get('/openapi.json')).data);

  const accepts = async (component: string, property: string, value: unknown): Promise<boolean> => {
    const { components } = await document();
    const ajv = new Ajv2020({ strict: false });
    addFormats.default(ajv);
    return ajv.validate({ ...components.schemas[component].properties[property], components }, value);
  };

  it('every field an answer always carries is required', async () => {
    const { schemas } = (await document()).components;
    for (const [name, optional] of Object.entries(RESPONSE_SCHEMAS)) {
      const properties = Object.keys(schemas[name].properties);
      const alwaysPresent = properties.filter((property) => !optional.includes(property));
      assert.deepEqual([...(schemas[name].required ?? [])].sort(), alwaysPresent.sort(), name);
    }
  });

  it('the fields that may be null still accept null', async () => {
    for (const [name, properties] of Object.entries(NULLABLE)) {
      for (const property of properties) assert.ok(await accepts(name, property, null), `${name}.${property}`);
    }
  });

  it('checkout_url is a URI or null, so that generated clients keep it, and is left out of answers other than checkout', async () => {
    assert.ok(await accepts('SandboxCart', 'checkout_url', null));
    assert.ok(await accepts('SandboxCart', 'checkout_url', 'https://shop.example/checkout/1'));
    assert.ok(!(await accepts('SandboxCart', 'checkout_url', 'not a uri')));
    assert.ok(!(await document()).components.schemas.SandboxCart.required.includes('checkout_url'));
  });
});
