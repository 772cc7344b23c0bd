import type { FastifyInstance } from 'fastify';
import { deprecationsOf, type Deprecation } from './deprecations.js';
import { html } from './html.js';
import { page } from './layout.js';
import { PAGES } from './links.js';

/**
 * `/docs/changelog`: the deprecations and sunset dates the served OpenAPI document
 * declares, read from `app.swagger()` on each request (the document is built once and
 * cached by @fastify/swagger), so the page says what the contract says.
 */
export function changelogPage(app: FastifyInstance): void {
  app.get(PAGES.changelog, { schema: { hide: true } }, async (_request, reply) => {
    const document = app.swagger() as { info?: { version?: string } };
    return reply.type('text/html; charset=utf-8').send(changelogHtml(document.info?.version ?? '', deprecationsOf(document)));
  });
}

function changelogHtml(version: string, deprecations: Deprecation[]): string {
  const body = html`
<h1>Changelog and deprecations</h1>
<p class="lead">Contract version <strong>${version}</strong>, read from <a href="/openapi.json">/openapi.json</a> as this server serves it.</p>
<p>Breaking changes ship under a new <code>/v2</code> path; additions to <code>/v1</code> stay backward compatible. Deprecated operations, parameters and fields are marked <code>deprecated: true</code> in the contract and listed here before they are removed. A deprecated route answers with <code>Deprecation: true</code>, and with <code>Sunset</code> (the date after which it may be removed) and <code>Link</code> headers.</p>
<h2>Deprecated now</h2>
${
  deprecations.length === 0
    ? html`<p class="empty">Nothing in the contract is deprecated.</p>`
    : html`<table class="deprecations">
<thead><tr><th>What</th><th>Kind</th><th>Description</th><th>Sunset</th></tr></thead>
<tbody>
${deprecations.map(
  (item) => html`<tr>
<td>${item.reference ? html`<a href="${PAGES.apiReference}${item.reference}"><code>${item.subject}</code></a>` : html`<code>${item.subject}</code>`}${item.operation ? html`<br><small>of <code>${item.operation}</code></small>` : ''}</td>
<td>${item.kind}</td>
<td>${item.description}</td>
<td class="sunset">${item.sunset ?? 'not announced'}</td>
</tr>`,
)}
</tbody>
</table>`
}
`;
  return page({ title: 'Changelog', path: PAGES.changelog, body });
}
