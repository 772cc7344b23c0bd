/** The portal's pages, the same on every deployment. */
export const PAGES = {
  home: '/',
  apiReference: '/docs',
  sandboxGuide: '/docs/sandbox',
  changelog: '/docs/changelog',
  console: '/console',
} as const;

/** Where the portal's own stylesheet and script are served. */
export const ASSETS_PREFIX = '/docs/assets';

/** What a client needs to start, as absolute URLs under the configured public base URL. */
export interface StartLinks {
  openapi: string;
  catalog: string;
  changes: string;
  changes_stream: string;
  api_reference: string;
  sandbox_guide: string;
  changelog: string;
  sandbox_discovery: string;
  sandbox_keys: string;
  mcp_catalog: string;
  mcp_sandbox: string;
  ucp_profile: string;
  ucp_rest: string;
  ucp_mcp: string;
  acp_discovery: string;
  acp_checkout_sessions: string;
  acp_carts: string;
  acp_delegate_payment: string;
  acp_mcp: string;
  acp_feed: string;
}

/** Where the service speaks the Universal Commerce Protocol (app.ts passes the UCP feature's paths). */
export interface UcpPaths {
  profile: string;
  rest: string;
  mcp: string;
}

/** Where the service speaks the Agentic Commerce Protocol (app.ts passes the ACP feature's paths). */
export interface AcpPaths {
  discovery: string;
  checkoutSessions: string;
  carts: string;
  delegatePayment: string;
  /** The MCP binding's endpoint. */
  mcp: string;
  /** The feeds' root: a market's files are under `{feed}/{country}/`. */
  feed: string;
}

export function startLinks(publicBaseUrl: string, ucp: UcpPaths, acp: AcpPaths): StartLinks {
  const at = (path: string) => `${publicBaseUrl}${path}`;
  return {
    openapi: at('/openapi.json'),
    catalog: at('/public/v1/products'),
    changes: at('/public/v1/changes'),
    changes_stream: at('/public/v1/changes/stream'),
    api_reference: at(PAGES.apiReference),
    sandbox_guide: at(PAGES.sandboxGuide),
    changelog: at(PAGES.changelog),
    sandbox_discovery: at('/sandbox/v1'),
    sandbox_keys: at('/sandbox/v1/keys'),
    mcp_catalog: at('/mcp'),
    mcp_sandbox: at('/mcp/sandbox'),
    ucp_profile: at(ucp.profile),
    ucp_rest: at(ucp.rest),
    ucp_mcp: at(ucp.mcp),
    acp_discovery: at(acp.discovery),
    acp_checkout_sessions: at(acp.checkoutSessions),
    acp_carts: at(acp.carts),
    acp_delegate_payment: at(acp.delegatePayment),
    acp_mcp: at(acp.mcp),
    acp_feed: at(acp.feed),
  };
}

/** The key a client configuration shows where the developer pastes their sandbox key. */
const KEY_PLACEHOLDER = 'Bearer sbx_test_...';

/**
 * Client configurations for both MCP servers, ready to paste: `mcpServers` is the shape
 * Claude Desktop, Claude Code and Cursor read; VS Code's `.vscode/mcp.json` calls the
 * same entries `servers`. The sandbox key goes in the Authorization header.
 */
export function mcpClientConfigs(links: StartLinks): { mcpServers: object; vscode: object } {
  const servers = {
    vetrina: { type: 'http', url: links.mcp_catalog },
    'vetrina-sandbox': { type: 'http', url: links.mcp_sandbox, headers: { Authorization: KEY_PLACEHOLDER } },
  };
  return { mcpServers: { mcpServers: servers }, vscode: { servers } };
}
