/** Where this service serves ACP, under PUBLIC_BASE_URL (docs/acp.md). */
export const ACP_PATHS = {
  /** The discovery document (rfc.discovery.md), at the root of the host; its `api_base_url` is the prefix. */
  discovery: '/.well-known/acp.json',
  /** Every ACP route is under it. */
  prefix: '/acp',
  /** The product feed of one market: `/acp/feed/{country}/...` (docs/acp.md, Product feed). */
  feed: '/acp/feed',
  /** The checkout sessions (docs/acp.md, Checkout sessions); a completed session is its order's permalink. */
  checkoutSessions: '/acp/checkout_sessions',
  /** The release's MCP binding: the checkout sessions as MCP tools (docs/acp.md, MCP binding). */
  mcp: '/acp/mcp',
  /** The carts (docs/acp.md, Carts): the sandbox's carts in the release's shapes. */
  carts: '/acp/carts',
  /** Delegated payment, simulated (docs/acp.md, Delegated payment, simulated). */
  delegatePayment: '/acp/agentic_commerce/delegate_payment',
  /** The order webhook of the calling sandbox key (docs/acp.md, Order events). */
  orderWebhook: '/acp/sandbox/order_webhook',
  /** The simulated payment handler's schemas (docs/acp.md, The simulated payment handler). */
  paymentHandler: '/acp/payment-handler',
} as const;
