/** Where this service serves ACP, under PUBLIC_BASE_URL (docs/acp.md). */
export const ACP_PATHS = {
  /** Every ACP route is under it. */
  prefix: '/acp',
  /** The product feed of one market: `/acp/feed/{country}/...` (docs/acp.md, Product feed). */
  feed: '/acp/feed',
} as const;
