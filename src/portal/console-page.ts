import type { FastifyInstance } from 'fastify';
import { html, type Html } from './html.js';
import { page } from './layout.js';
import { PAGES } from './links.js';

/** The console's parts, in the order of the page and of its table of contents. */
const PARTS = [
  { id: 'products', title: 'Products' },
  { id: 'imports', title: 'Imports' },
  { id: 'audit', title: 'Audit trail' },
  { id: 'webhooks', title: 'Webhooks' },
] as const;

/** A page of a list: the buttons `console.js` pages it with (cursor paging, newest or first page first). */
const pager = (list: string, label: string): Html =>
  html`<div class="pager" data-pager="${list}"><button type="button" data-page="previous" disabled>Previous page</button><button type="button" data-page="next" disabled>Next page</button><span class="muted">${label}</span></div>`;

/** A list's table: its caption and column heads; `console.js` fills the body. */
const table = (list: string, caption: string, columns: string[]): Html =>
  html`<table class="console-list" data-list="${list}"><caption>${caption}</caption><thead><tr>${columns.map((column) => html`<th scope="col">${column}</th>`)}</tr></thead><tbody></tbody></table>`;

/**
 * `/console`: the operator console. The page is static and holds no data: its script
 * (`console.js`) signs in with an admin token kept in the tab's sessionStorage and
 * reads and writes everything through the admin API (`/admin/v1`, `Authorization:
 * Bearer`), as any other client of it would. Where the admin API is off, the page says
 * so and loads no script.
 */
export function consolePage(app: FastifyInstance, adminApiOn: boolean): void {
  const text = adminApiOn ? consoleHtml() : adminApiOffHtml();
  app.get(PAGES.console, { schema: { hide: true } }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(text));
}

function adminApiOffHtml(): string {
  const body = html`
<h1>Operator console</h1>
<p class="notice" role="status">The admin API is off on this server: the console works through it. Set <code>ADMIN_TOKENS</code> and restart (<code>docs/admin.md</code>, Tokens).</p>
`;
  return page({ title: 'Operator console', path: PAGES.console, body });
}

function consoleHtml(): string {
  const body = html`
<h1>Operator console</h1>
<p class="lead">Find and change products, import catalog files and watch them run, read the audit trail and webhook deliveries: all through this server's admin API, with an admin token.</p>
<noscript><p class="notice">The console runs in your browser and needs JavaScript.</p></noscript>

<section id="sign-in" aria-labelledby="sign-in-heading">
<h2 id="sign-in-heading">Sign in</h2>
<form id="sign-in-form" class="console-form" autocomplete="off">
<label for="sign-in-token">Admin token</label>
<input id="sign-in-token" type="password" required spellcheck="false" autocomplete="off">
<button type="submit">Sign in</button>
</form>
<p class="muted">The token stays in this browser tab (sessionStorage) until you sign out or close the tab; it is sent only as <code>Authorization: Bearer</code> to <code>/admin/v1</code>, never in a URL or a cookie. Each system should have a token of its own in <code>ADMIN_TOKENS</code>: the audit trail names it.</p>
<div class="problem" role="alert" data-message="sign-in"></div>
<p class="note" role="status" data-note="sign-in"></p>
</section>

<div id="console" hidden>
<div class="signed-in"><span role="status">Signed in.</span> <button type="button" id="sign-out">Sign out</button></div>
<nav aria-label="Console"><ul class="parts">${PARTS.map((part) => html`<li><a href="#${part.id}">${part.title}</a></li>`)}</ul></nav>

<section id="products" aria-labelledby="products-heading">
<h2 id="products-heading">Products</h2>
<form id="product-search" class="console-form filters">
<label for="product-q">Search</label><input id="product-q" type="search" maxlength="200" placeholder="words in the handle or a title">
<label for="product-status">Status</label><select id="product-status"><option value="">any</option><option value="draft">draft</option><option value="published">published</option></select>
<label for="product-sku">SKU</label><input id="product-sku" type="text" maxlength="64">
<button type="submit">Find</button>
</form>
<div class="problem" role="alert" data-message="products"></div>
${table('products', 'Products, drafts included, in handle order', ['Title', 'Handle', 'Status', 'SKUs', 'Updated'])}
${pager('products', '20 a page')}

<section id="product" class="product" aria-labelledby="product-heading" hidden>
<h3 id="product-heading" tabindex="-1"></h3>
<p class="product-facts" data-product="facts"></p>
<div class="product-actions"><button type="button" data-product="status"></button><button type="button" data-product="reload">Reload</button></div>
<div class="problem" role="alert" data-message="product"></div>
<p class="note" role="status" data-note="product"></p>
<div data-product="variants"></div>
</section>
</section>

<section id="imports" aria-labelledby="imports-heading">
<h2 id="imports-heading">Imports</h2>
<form id="import-form" class="console-form">
<label for="import-file">Catalog file (JSON, the catalog file format)</label>
<input id="import-file" type="file" accept="application/json,.json" required>
<label class="check"><input id="import-unpublish" type="checkbox"> Set products the file lacks to draft (<code>unpublish_missing</code>)</label>
<button type="submit">Start import</button>
</form>
<div class="problem" role="alert" data-message="imports"></div>
<p class="note" role="status" data-note="imports"></p>
<section class="job" data-job aria-labelledby="job-heading" hidden>
<h3 id="job-heading" tabindex="-1">Import</h3>
<p><span data-job="status" class="badge"></span> <span data-job="phase"></span></p>
<progress data-job="progress" aria-labelledby="job-heading" max="1"></progress>
<p role="status" data-job="counts"></p>
<button type="button" data-job="cancel" hidden>Cancel import</button>
<div data-job="outcome"></div>
</section>
<div class="list-head"><h3>Recent imports</h3><button type="button" data-refresh="imports">List recent imports</button></div>
${table('imports', 'Imports, newest first', ['Started', 'By', 'Status', 'Products written', 'Catalog versions', ''])}
${pager('imports', 'newest first')}
</section>

<section id="audit" aria-labelledby="audit-heading">
<h2 id="audit-heading">Audit trail</h2>
<form id="audit-filter" class="console-form filters">
<label for="audit-actor">Actor</label><input id="audit-actor" type="text" maxlength="64" placeholder="a token name">
<label for="audit-target-type">Target</label><select id="audit-target-type"><option value="">any</option>${['product', 'variant', 'region', 'category', 'collection', 'catalog'].map((type) => html`<option>${type}</option>`)}</select>
<label for="audit-target-id">Target id</label><input id="audit-target-id" type="text" maxlength="200">
<button type="submit">Show</button>
</form>
<div class="problem" role="alert" data-message="audit"></div>
${table('audit', 'Audit entries, newest first', ['When', 'Actor', 'Action', 'Target', 'Versions', 'Changes'])}
${pager('audit', 'newest first')}
</section>

<section id="webhooks" aria-labelledby="webhooks-heading">
<h2 id="webhooks-heading">Webhooks</h2>
<div class="list-head"><p class="muted">Subscriptions of every kind; changes to them are made through <code>/admin/v1/webhooks</code> (<code>docs/webhooks.md</code>).</p><button type="button" data-refresh="webhooks">Refresh</button></div>
<div class="problem" role="alert" data-message="webhooks"></div>
${table('webhooks', 'Webhook subscriptions, oldest first', ['URL', 'Kind', 'Events', 'Status', 'Created', ''])}
<section data-deliveries aria-labelledby="deliveries-heading" hidden>
<h3 id="deliveries-heading" tabindex="-1">Recent deliveries</h3>
${table('deliveries', 'Deliveries, newest first', ['Event', 'Status', 'Attempts', 'Last answer', 'Created', 'Delivered'])}
</section>
</section>
</div>
`;
  return page({ title: 'Operator console', path: PAGES.console, body, scripts: ['console.js'] });
}
