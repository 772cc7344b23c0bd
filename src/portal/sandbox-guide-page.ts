import type { FastifyInstance } from 'fastify';
import { html } from './html.js';
import { page } from './layout.js';
import { PAGES } from './links.js';

/** The steps `sandbox-guide.js` runs, in order; each names the calls it makes. */
const STEPS = [
  { id: 'variant', title: 'Pick a variant', text: 'Reads the public catalog (no key) and picks the first purchasable variant with a price in the default market.' },
  { id: 'key', title: 'Get a sandbox key', text: 'POST /sandbox/v1/keys with no body grants all three scopes for 24 hours. The token is shown once.' },
  { id: 'cart', title: 'Create a cart', text: "POST /sandbox/v1/carts in the variant's currency, with an Idempotency-Key: a retry with the same key returns the same cart." },
  { id: 'item', title: 'Add the variant', text: 'POST /sandbox/v1/carts/{id}/items: one of the variant, priced from the live catalog.' },
  { id: 'address', title: 'Set the shipping address', text: 'POST /sandbox/v1/carts/{id}/shipping-address, a simulated address in Italy.' },
  { id: 'shipping', title: 'Choose shipping', text: 'GET /sandbox/v1/carts/{id}/shipping-options, then POST /sandbox/v1/carts/{id}/shipping-option with the first option.' },
  { id: 'checkout', title: 'Check out (simulated)', text: 'POST /sandbox/v1/carts/{id}/checkout: status ready_for_checkout and checkout_url null. Nothing real is created.' },
] as const;

/** `/docs/sandbox`: the sandbox flow, run step by step in the browser by a script of ours against this server. */
export function sandboxGuidePage(app: FastifyInstance): void {
  const text = sandboxGuideHtml();
  app.get(PAGES.sandboxGuide, { schema: { hide: true } }, async (_request, reply) => reply.type('text/html; charset=utf-8').send(text));
}

function sandboxGuideHtml(): string {
  const body = html`
<h1>Sandbox guide</h1>
<p class="lead">Rehearse a purchase against this server, from a key to a simulated checkout. Each step sends real requests to the sandbox and shows them with their answers: method, URL, status, the headers that matter and the JSON.</p>
<p>Everything is simulated: no order, payment, customer or stock reservation is created. The same flow with curl is in <code>docs/sandbox.md</code>; every route is in the <a href="${PAGES.apiReference}">API reference</a>.</p>
<p>To rehearse how a client recovers from a failure, ask for one on purpose with the <code>Sandbox-Scenario</code> header: <code>GET /sandbox/v1</code> lists the scenarios under <code>scenarios</code>.</p>
<noscript><p class="notice">The steps run in your browser and need JavaScript; the rest of the portal works without it.</p></noscript>
<ol class="steps" id="steps">
${STEPS.map(
  (step, index) => html`<li class="step" data-step="${step.id}">
<div class="step-head"><h2>${step.title}</h2><button type="button" data-run="${step.id}"${index === 0 ? '' : html` disabled`}>Run</button><span class="state" data-state="${step.id}"></span></div>
<p>${step.text}</p>
<div class="exchanges" data-exchanges="${step.id}"></div>
</li>`,
)}
</ol>
`;
  return page({ title: 'Sandbox guide', path: PAGES.sandboxGuide, body, scripts: ['sandbox-guide.js'] });
}
