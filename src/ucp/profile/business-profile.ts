import type { MarketList } from '../../catalog/queries/catalog-service.js';
import { SERVED_CAPABILITIES } from '../capabilities.js';
import { UCP_PATHS } from '../endpoints.js';
import { schemaUrl, SHOPPING_SERVICE, shoppingServiceUrl, specUrl, UCP_VERSION } from '../version.js';
import { paymentHandlerDeclaration, SANDBOX_PAYMENT_HANDLER, type SandboxPaymentConfig } from './payment-handler.js';
import type { PublicSigningKey } from './signing-key.js';

export interface BusinessProfileInput {
  publicBaseUrl: string;
  signingKey: PublicSigningKey;
  /** The live catalog's markets. */
  markets: MarketList;
  /** The currencies the sandbox has a shipping amount for (SANDBOX_SHIPPING_AMOUNTS). */
  shippingCurrencies: readonly string[];
}

/**
 * The business profile served at `/.well-known/ucp` (overview.md, Business Profile): the
 * shopping service over REST and MCP, the capabilities this service serves, the sandbox
 * payment handler, and the key order webhooks are signed with. It follows the live
 * catalog: the currencies a checkout can be paid in are those its markets sell in and
 * the sandbox ships in.
 */
export function businessProfile({ publicBaseUrl, signingKey, markets, shippingCurrencies }: BusinessProfileInput): object {
  const binding = (transport: 'rest' | 'mcp', path: string, definition: string) => ({
    version: UCP_VERSION,
    spec: specUrl('overview'),
    transport,
    endpoint: `${publicBaseUrl}${path}`,
    schema: shoppingServiceUrl(definition),
  });
  return {
    ucp: {
      version: UCP_VERSION,
      services: {
        [SHOPPING_SERVICE]: [binding('rest', UCP_PATHS.rest, 'rest.openapi.json'), binding('mcp', UCP_PATHS.mcp, 'mcp.openrpc.json')],
      },
      capabilities: Object.fromEntries(
        SERVED_CAPABILITIES.map((capability) => [
          capability.name,
          [
            {
              version: UCP_VERSION,
              spec: specUrl(capability.spec),
              schema: schemaUrl(capability.schema),
              ...(capability.extends && { extends: capability.extends.length === 1 ? capability.extends[0] : [...capability.extends] }),
              ...(capability.config && { config: capability.config }),
            },
          ],
        ]),
      ),
      payment_handlers: {
        [SANDBOX_PAYMENT_HANDLER]: [paymentHandlerDeclaration(publicBaseUrl, sandboxPaymentConfig(markets, shippingCurrencies))],
      },
    },
    signing_keys: [signingKey],
  };
}

/** The payment handler's config: what a checkout can be paid in, from the markets and the shipping amounts. */
export function sandboxPaymentConfig(markets: MarketList, shippingCurrencies: readonly string[]): SandboxPaymentConfig {
  const sold = new Set(markets.regions.map((region) => region.currency));
  return { environment: 'sandbox', currencies: [...new Set(shippingCurrencies)].filter((currency) => sold.has(currency)).sort() };
}
