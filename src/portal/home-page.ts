import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import type { MarketList } from '../catalog/queries/catalog-service.js';
import { errorResponse } from '../catalog/public-api/routes/shared.js';
import { appendVary } from '../http/prepared-body.js';
import { prefersHtml } from './accept.js';
import { html } from './html.js';
import { page } from './layout.js';
import { mcpClientConfigs, PAGES, startLinks, type AcpPaths, type StartLinks, type UcpPaths } from './links.js';

const SERVICE = 'Vetrina';
const SUMMARY =
  'A keyless public product catalog with live regional prices and availability, and a free simulated sandbox for rehearsing cart and checkout, over REST and MCP.';

const PortalIndex = Type.Object(
  {
    service: Type.String(),
    description: Type.String(),
    links: Type.Object(
      {
        openapi: Type.String({ format: 'uri', description: 'The OpenAPI 3.1 contract.' }),
        catalog: Type.String({ format: 'uri', description: 'GET: the public catalog, no key needed.' }),
        changes: Type.String({ format: 'uri', description: 'GET: what changed in the catalog since a cursor (prices, availability, products), no key needed.' }),
        changes_stream: Type.String({ format: 'uri', description: 'GET: the same changes as Server-Sent Events, for EventSource.' }),
        api_reference: Type.String({ format: 'uri', description: 'The API reference with try-it (HTML).' }),
        sandbox_guide: Type.String({ format: 'uri', description: 'The sandbox walk-through, run in the browser (HTML).' }),
        changelog: Type.String({ format: 'uri', description: 'Deprecations and sunset dates, read from the contract (HTML).' }),
        sandbox_discovery: Type.String({ format: 'uri', description: 'GET: how to get a sandbox key.' }),
        sandbox_keys: Type.String({ format: 'uri', description: 'POST: issues a sandbox key.' }),
        mcp_catalog: Type.String({ format: 'uri', description: 'MCP server (Streamable HTTP): read-only product discovery.' }),
        mcp_sandbox: Type.String({ format: 'uri', description: 'MCP server (Streamable HTTP): simulated cart and checkout.' }),
        ucp_profile: Type.String({ format: 'uri', description: 'GET: the Universal Commerce Protocol business profile, where UCP agents start.' }),
        ucp_rest: Type.String({ format: 'uri', description: "The UCP REST binding's endpoint: the catalog, and a simulated cart, checkout and order." }),
        ucp_mcp: Type.String({ format: 'uri', description: "The UCP MCP binding's endpoint (Streamable HTTP)." }),
        acp_discovery: Type.String({ format: 'uri', description: 'GET: the Agentic Commerce Protocol discovery document, where ACP agents start.' }),
        acp_checkout_sessions: Type.String({ format: 'uri', description: 'POST: creates a simulated ACP checkout session (with a sandbox key); the sessions are under it.' }),
        acp_carts: Type.String({ format: 'uri', description: 'POST: creates an ACP cart (with a sandbox key), the same cart the sandbox serves; the carts are under it.' }),
        acp_delegate_payment: Type.String({ format: 'uri', description: 'POST: delegates a sandbox test card for a simulated ACP payment (with a sandbox key).' }),
        acp_mcp: Type.String({ format: 'uri', description: "The ACP MCP binding's endpoint (Streamable HTTP): the checkout sessions as the release's tools (with a sandbox key)." }),
        acp_feed: Type.String({ format: 'uri', description: "The ACP product feeds, no key needed: a market's are under /{country}/ (metadata.json, products.json, products.jsonl)." }),
      },
      { additionalProperties: false },
    ),
  },
  { additionalProperties: false },
);

/**
 * `GET /`: the portal's home page for a browser, a JSON index of the same links for any
 * client that does not prefer HTML. The markets come from the live catalog through the
 * service `list_markets` uses.
 */
export function homePage(app: FastifyInstance, publicBaseUrl: string, ucp: UcpPaths, acp: AcpPaths): void {
  const links = startLinks(publicBaseUrl, ucp, acp);
  const index = { service: SERVICE, description: SUMMARY, links };
  app.get(
    PAGES.home,
    {
      schema: {
        operationId: 'getIndex',
        tags: ['discovery'],
        security: [],
        summary: 'Where to start: the contract, the MCP servers, the sandbox',
        description:
          'Answers a JSON index of the service\'s entry points unless the client prefers text/html (`Accept: text/html` ranked above application/json, as browsers send), which gets the developer portal\'s home page. Answers vary by Accept. Counts against the catalog rate limit, like every portal page.',
        response: {
          200: {
            description: 'The index (or, for a browser, the home page)',
            headers: { Vary: Type.String({ description: '`Accept`' }) },
            content: {
              'application/json': { schema: PortalIndex },
              'text/html': { schema: Type.String() },
            },
          },
          '4xx': errorResponse('RATE_LIMITED past the catalog rate limit (with the RateLimit headers and Retry-After); INVALID_QUERY for a malformed request.'),
        },
      },
    },
    async (request, reply) => {
      // Added to what CORS may have put there (Origin, when CORS_ORIGINS lists origins).
      appendVary(reply, 'Accept');
      if (!prefersHtml(request.headers.accept)) return index;
      return reply.type('text/html; charset=utf-8').send(homeHtml(links, app.catalog.markets()));
    },
  );
}

function homeHtml(links: StartLinks, markets: MarketList): string {
  const configs = mcpClientConfigs(links);
  const body = html`
<section class="hero">
<h1>${SERVICE}</h1>
<p class="lead">${SUMMARY}</p>
<p>Nothing real is ever created by the sandbox: no order, payment, customer or stock reservation.</p>
</section>

<section>
<h2>Quick start</h2>
<ol class="start">
<li><strong>Read the contract.</strong> <a href="${links.openapi}">${links.openapi}</a> is the OpenAPI 3.1 document, generated from the same schemas that validate requests. Browse it with try-it in the <a href="${PAGES.apiReference}">API reference</a>.</li>
<li><strong>Query the catalog</strong>, no key needed: <code>curl '${links.catalog}?q=caffe&limit=3'</code></li>
<li><strong>Rehearse a purchase.</strong> The <a href="${PAGES.sandboxGuide}">sandbox guide</a> issues a key and walks a cart to checkout in your browser, showing every request and answer.</li>
<li><strong>Follow live changes</strong>, no key needed: <code>curl '${links.changes}'</code> answers the current cursor; <code>?since=</code> that cursor answers what changed since, each product rendered in your market. Browsers can listen with <code>new EventSource('${links.changes_stream}')</code>; a store's own systems can subscribe to signed webhooks through the admin API.</li>
<li><strong>Connect an agent</strong> to the MCP servers (below).</li>
<li><strong>Test a UCP agent.</strong> Point it at the business profile <a href="${links.ucp_profile}">${links.ucp_profile}</a>: the catalog, a simulated cart, checkout and order over REST (<code>${links.ucp_rest}</code>) and MCP (<code>${links.ucp_mcp}</code>), paid with the sandbox's simulated payment handler. Nothing real is created.</li>
<li><strong>Test an ACP agent.</strong> Point it at the discovery document <a href="${links.acp_discovery}">${links.acp_discovery}</a>: simulated checkout sessions at <code>${links.acp_checkout_sessions}</code> (and as the release's MCP tools at <code>${links.acp_mcp}</code>) and carts at <code>${links.acp_carts}</code>, paid with a sandbox test card delegated at <code>${links.acp_delegate_payment}</code>, both with a sandbox key as the bearer token; each market's product feed, no key needed: <code>curl '${links.acp_feed}/${markets.default_market.country}/products.jsonl'</code>. Nothing real is created.</li>
<li><strong>Watch for changes.</strong> The <a href="${PAGES.changelog}">changelog</a> lists what is deprecated and when it goes.</li>
</ol>
</section>

<section>
<h2>Markets</h2>
<p>Default market: country <code>${markets.default_market.country}</code>, locale <code>${markets.default_market.locale}</code>. Locales: ${markets.locales.join(', ')}.</p>
<table class="markets">
<thead><tr><th>Region</th><th>Id</th><th>Currency</th><th>Countries</th></tr></thead>
<tbody>
${markets.regions.map(
  (region) => html`<tr><td>${region.name}</td><td><code>${region.id}</code></td><td>${region.currency}</td><td>${region.countries.join(', ')}</td></tr>`,
)}
</tbody>
</table>
</section>

<section>
<h2>MCP servers</h2>
<dl class="endpoints">
<dt><a href="${links.mcp_catalog}">${links.mcp_catalog}</a></dt><dd>Read-only product discovery: <code>search_catalog</code>, <code>get_product</code>, <code>lookup_catalog</code>, <code>list_markets</code>, <code>list_categories</code>, <code>get_catalog_changes</code>. No key.</dd>
<dt><a href="${links.mcp_sandbox}">${links.mcp_sandbox}</a></dt><dd>The same tools plus a simulated cart and checkout. Get a key with <code>POST ${links.sandbox_keys}</code> (or the <code>create_sandbox_key</code> tool) and send it as <code>Authorization: Bearer</code>.</dd>
</dl>
<p>Claude Desktop, Claude Code, Cursor (<code>mcpServers</code>):</p>
<pre class="code" data-config="mcpServers">${JSON.stringify(configs.mcpServers, null, 2)}</pre>
<p>VS Code (<code>.vscode/mcp.json</code>):</p>
<pre class="code" data-config="vscode">${JSON.stringify(configs.vscode, null, 2)}</pre>
</section>
`;
  return page({ title: 'Developer portal', path: PAGES.home, body });
}
