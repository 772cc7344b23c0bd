import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useBrowser, useServedApp } from '../support/browser.js';

const served = useServedApp();
const browser = useBrowser();

test('the home page lists the live markets and the quick-start links, loading nothing from another host', async (t) => {
  const guarded = await browser.open(t, [served.url()]);
  if (!guarded) return;
  const { page } = guarded;
  const response = await page.goto(`${served.url()}/`);
  assert.equal(response?.status(), 200);
  assert.match(response!.headers()['content-type']!, /^text\/html/);

  await assert.doesNotReject(page.getByRole('heading', { name: 'Vetrina', level: 1 }).waitFor());
  const regions = served.app().app.catalog.live.regions;
  assert.ok(regions.length > 0);
  const rows = page.locator('table.markets tbody tr');
  assert.equal(await rows.count(), regions.length);
  for (const region of regions) await rows.filter({ hasText: region.name }).filter({ hasText: region.currency }).waitFor();

  for (const path of ['/openapi.json', '/docs', '/docs/sandbox', '/docs/changelog']) {
    assert.ok((await page.locator(`main a[href="${path}"], main a[href="${served.url()}${path}"]`).count()) > 0, `a link to ${path}`);
  }
  for (const path of ['/.well-known/ucp', '/.well-known/acp.json']) {
    assert.equal(await page.locator(`main a[href="${served.url()}${path}"]`).count(), 1, `a link to ${path}`);
  }
  const acp = page.locator('ol.start li', { hasText: 'Test an ACP agent.' });
  for (const path of ['/acp/checkout_sessions', '/acp/carts', '/acp/agentic_commerce/delegate_payment', '/acp/feed/']) {
    assert.ok((await acp.innerText()).includes(`${served.url()}${path}`), `the ACP entry ${path}`);
  }
  const config = JSON.parse(await page.locator('pre[data-config="mcpServers"]').innerText());
  assert.deepEqual(config.mcpServers.vetrina, { type: 'http', url: `${served.url()}/mcp` });
  assert.equal(config.mcpServers['vetrina-sandbox'].url, `${served.url()}/mcp/sandbox`);

  await page.getByRole('link', { name: 'Changelog' }).first().click();
  await page.locator('table.deprecations td.sunset').first().waitFor();
  guarded.assertStayedHome();
});

test('the sandbox guide walks a key, a cart, an item, an address and shipping to a simulated checkout', async (t) => {
  const guarded = await browser.open(t, [served.url()]);
  if (!guarded) return;
  const { page } = guarded;
  await page.goto(`${served.url()}/docs/sandbox`);

  const steps = await page.locator('[data-run]').evaluateAll((buttons) => buttons.map((button) => (button as unknown as { dataset: { run: string } }).dataset.run));
  assert.deepEqual(steps, ['variant', 'key', 'cart', 'item', 'address', 'shipping', 'checkout']);
  for (const step of steps) {
    await page.locator(`[data-run="${step}"]`).click();
    await page.locator(`[data-state="${step}"].done, [data-state="${step}"].failed`).waitFor();
    const state = page.locator(`[data-state="${step}"]`);
    assert.equal(await state.getAttribute('class'), 'state done', `step ${step}: ${await state.innerText()}`);
  }

  const checkout = page.locator('[data-exchanges="checkout"] .exchange').last();
  assert.match(await checkout.locator('.request .line').innerText(), new RegExp(`^POST ${served.url()}/sandbox/v1/carts/sandbox_cart_[0-9a-f]{24}/checkout$`));
  assert.equal(await checkout.locator('.response .status').innerText(), '200 OK');
  assert.ok((await checkout.locator('.response .header', { hasText: /^idempotency-key: guide-checkout-/ }).count()) === 1);
  const cart = JSON.parse(await checkout.locator('.response pre.json').innerText());
  assert.equal(cart.status, 'ready_for_checkout');
  assert.equal(cart.checkout_url, null);
  assert.equal(cart.simulated, true);
  assert.equal(cart.items.length, 1);
  guarded.assertStayedHome();
});
