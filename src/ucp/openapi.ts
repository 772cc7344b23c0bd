import { UCP_PATHS } from './endpoints.js';
import { UCP_VERSION } from './version.js';

/** The tag of every UCP route in /openapi.json. */
export const UCP_TAG = 'UCP';

/** The tag as /openapi.json declares it (src/openapi-document.ts). */
export const UCP_TAG_DOCUMENT = {
  name: UCP_TAG,
  description: `The Universal Commerce Protocol ${UCP_VERSION}, over the same live catalog and simulated sandbox: the business profile at ${UCP_PATHS.profile}, the REST binding under ${UCP_PATHS.rest} (MCP: ${UCP_PATHS.mcp}). Every REST request names its platform profile in UCP-Agent and is negotiated against it. Nothing real is ever created.`,
};
