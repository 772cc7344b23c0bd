/** Where this service serves UCP, under PUBLIC_BASE_URL (docs/ucp.md). */
export const UCP_PATHS = {
  /** The business profile (overview.md, Business Profile). */
  profile: '/.well-known/ucp',
  /** The REST binding's `endpoint`: the release's OpenAPI paths are appended to it. */
  rest: '/ucp/v1',
  /** The MCP binding's `endpoint`. */
  mcp: '/ucp/mcp',
  /** The simulated payment handler's specification and its JSON Schema. */
  paymentHandlerSpec: '/ucp/payment-handler',
  paymentHandlerSchema: '/ucp/payment-handler/schema.json',
} as const;
