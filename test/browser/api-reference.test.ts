import assert from 'node:assert/strict';
import { test } from 'node:test';
import { useBrowser, useServedApp } from '../support/browser.js';

const served = useServedApp();
const browser = useBrowser();

const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'];

test('/docs renders every operation of /openapi.json, and try-it lists products on the running server', async (t) => {
  const guarded = await browser.open(t, [served.url()]);
  if (!guarded) return;
  const { page } = guarded;
  const document = (await (await fetch(`${served.url()}/openapi.json`)).json()) as { paths: Record<string, Record<string, unknown>> };
  const operations = Object.values(document.paths).flatMap((item) => Object.keys(item).filter((key) => METHODS.includes(key))).length;

  const documentsLoaded: string[] = [];
  page.on('response', (response) => {
    if (response.url().endsWith('openapi.json')) documentsLoaded.push(new URL(response.url()).pathname);
  });
  await page.goto(`${served.url()}/docs`);
  const blocks = page.locator('.opblock');
  await page.locator('.opblock').first().waitFor();
  assert.equal(await blocks.count(), operations);
  assert.deepEqual(documentsLoaded, ['/openapi.json'], 'the UI shows the public document, and only it');

  const listProducts = page.locator('#operations-catalog-listProducts');
  await listProducts.locator('.opblock-summary').click();
  await listProducts.getByRole('button', { name: 'Try it out' }).click();
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/public/v1/products');
  await listProducts.getByRole('button', { name: 'Execute' }).click();
  assert.equal(new URL((await answer).url()).origin, served.url(), "try-it calls the document's server");
  const status = listProducts.locator('.live-responses-table .response .response-col_status');
  await status.waitFor();
  assert.equal((await status.innerText()).trim(), '200');

  guarded.assertStayedHome();
});

test('Authorize takes a sandbox key, and try-it sends it on a sandbox route', async (t) => {
  const guarded = await browser.open(t, [served.url()]);
  if (!guarded) return;
  const { page } = guarded;
  const key = (await (await fetch(`${served.url()}/sandbox/v1/keys`, { method: 'POST' })).json()) as { access_token: string };

  await page.goto(`${served.url()}/docs`);
  await page.getByRole('button', { name: 'Authorize' }).first().click();
  const scheme = page.locator('.dialog-ux .auth-container').filter({ has: page.locator('h4 code', { hasText: 'sandboxBearer' }) });
  await scheme.locator('input').fill(key.access_token);
  await scheme.getByRole('button', { name: 'Apply credentials' }).click();
  await scheme.getByRole('button', { name: 'Close' }).click();

  const createCart = page.locator('#operations-sandbox-createSandboxCart');
  await createCart.locator('.opblock-summary').click();
  await createCart.getByRole('button', { name: 'Try it out' }).click();
  await createCart.locator('tr[data-param-name="idempotency-key" i] input').fill('from-the-api-reference');
  const answer = page.waitForResponse((response) => new URL(response.url()).pathname === '/sandbox/v1/carts');
  await createCart.getByRole('button', { name: 'Execute' }).click();
  assert.equal((await answer).request().headers().authorization, `Bearer ${key.access_token}`);
  const status = createCart.locator('.live-responses-table .response .response-col_status');
  await status.waitFor();
  assert.equal((await status.innerText()).trim(), '201');

  guarded.assertStayedHome();
});
