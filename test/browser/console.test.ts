import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Page } from 'playwright-core';
import { generateCatalog } from '../../tools/catalog-generator/catalog.js';
import { adminClient, ERP_TOKEN, PIM_TOKEN, withAdmin, type AdminCall } from '../support/admin.js';
import { useBrowser, useServedApp, type GuardedPage } from '../support/browser.js';
import { webhookSettings } from '../support/webhooks.js';
import { startReceiver, type WebhookReceiver } from '../support/webhook-receiver.js';

const served = useServedApp(withAdmin({ config: { webhooks: webhookSettings({ allowPrivateTargets: true }) } }));
const browser = useBrowser();
const admin = (): AdminCall => adminClient(served.app());

/** What the functions run in the page use (the tests are typed for Node, not the DOM). */
interface BrowserGlobals {
  sessionStorage: { getItem(key: string): string | null };
  localStorage: { length: number };
  document: { querySelector(selector: string): { textContent: string | null } | null };
}

/** The key the console keeps its token under, in sessionStorage. */
const TOKEN_KEY = 'vetrina.console.token';
/** A draft of the demo catalog, with one variant: BV-CON-RAG, 6.90 EUR, 98 in stock. */
const DRAFT = { handle: 'bolognese-ragu', title: 'Bolognese Ragù', sku: 'BV-CON-RAG' };

async function openConsole(t: Parameters<typeof browser.open>[0]): Promise<GuardedPage | undefined> {
  const guarded = await browser.open(t, [served.url()]);
  if (!guarded) return undefined;
  const response = await guarded.page.goto(`${served.url()}/console`);
  assert.equal(response?.status(), 200);
  return guarded;
}

async function signIn(page: Page): Promise<void> {
  await page.getByLabel('Admin token').fill(ERP_TOKEN);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
}

/** The console in a new guarded page, signed in with the ERP token. */
async function signedIn(t: Parameters<typeof browser.open>[0]): Promise<GuardedPage | undefined> {
  const guarded = await openConsole(t);
  if (guarded) await signIn(guarded.page);
  return guarded;
}

const storedToken = (page: Page) => page.evaluate((key) => (globalThis as unknown as BrowserGlobals).sessionStorage.getItem(key), TOKEN_KEY);

/** A variant's price in EUR for any region, as the admin API answers it. */
const euros = (variant: { prices: { currency: string; region?: string; amount: number }[] }) =>
  variant.prices.find((price) => price.currency === 'EUR' && price.region === undefined)?.amount;

/** The text of a list's first row, to tell when another page has replaced it. */
const firstRow = (page: Page, list: string) => page.locator(`[data-list="${list}"] tbody tr`).first().textContent();

/** Clicks and waits until another page of the list replaces the one shown. */
async function showsOtherPage(page: Page, list: string, click: () => Promise<void>): Promise<void> {
  const shown = await firstRow(page, list);
  await click();
  await page.waitForFunction(([selector, text]) => (globalThis as unknown as BrowserGlobals).document.querySelector(selector!)?.textContent !== text, [`[data-list="${list}"] tbody tr`, shown]);
}

/**
 * Waits until a list shows the answer to its latest request: the rows shown before (the
 * first page, asked for at sign-in) may already hold what a search is to find.
 */
const answered = (page: Page, list: string) => page.locator(`[data-list="${list}"]:not([aria-busy])`).waitFor();

/** The rows of a console list, each as its cells' text. */
const rows = (page: Page, list: string) =>
  page.locator(`[data-list="${list}"] tbody tr`).evaluateAll((trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => (td.textContent ?? '').trim())));

test('a wrong token is refused in the API\'s own words, and nothing of it is kept', async (t) => {
  const guarded = await openConsole(t);
  if (!guarded) return;
  const { page } = guarded;
  await page.getByRole('heading', { name: 'Operator console', level: 1 }).waitFor();
  await page.getByLabel('Admin token').fill('erp_not-a-token-of-this-server-at-all');
  await page.getByRole('button', { name: 'Sign in' }).click();
  const alert = page.locator('[data-message="sign-in"]');
  await alert.getByText('401 UNAUTHORIZED').waitFor();
  assert.match(await alert.innerText(), /Unknown admin token\./);
  assert.equal(await storedToken(page), null);
  assert.equal(await page.locator('#console').isHidden(), true);
  guarded.assertStayedHome([401]);
});

test('the token is kept for the tab only: a reload keeps it, a new tab does not, no URL, cookie or localStorage has it; sign-out forgets it', async (t) => {
  const guarded = await openConsole(t);
  if (!guarded) return;
  const { page, context } = guarded;
  await signIn(page);
  assert.equal(await storedToken(page), ERP_TOKEN);
  await page.reload();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await page.locator('[data-list="products"] tbody tr').first().waitFor();

  const other = await context.newPage();
  await other.goto(`${served.url()}/console`);
  await other.getByRole('button', { name: 'Sign in' }).waitFor();
  assert.equal(await storedToken(other), null);
  assert.equal(await other.locator('#console').isHidden(), true);
  await other.close();

  assert.deepEqual(await context.cookies(), []);
  assert.equal(await page.evaluate(() => (globalThis as unknown as BrowserGlobals).localStorage.length), 0);
  assert.ok(!page.url().includes(ERP_TOKEN));

  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByText('Signed out: the token is forgotten.').waitFor();
  assert.equal(await storedToken(page), null);
  assert.equal(await page.locator('[data-list="products"] tbody tr').count(), 0, 'what was shown is cleared');
  await page.reload();
  await page.getByRole('button', { name: 'Sign in' }).waitFor();
  assert.equal(await page.locator('#console').isHidden(), true);
  guarded.assertStayedHome();
});

test('finds a draft among the products and publishes, then withdraws it: the public catalog follows', async (t) => {
  const guarded = await signedIn(t);
  if (!guarded) return;
  const { page } = guarded;
  await page.getByLabel('Status').selectOption('draft');
  await page.getByLabel('Search').fill('ragu');
  await page.getByRole('button', { name: 'Find' }).click();
  await answered(page, 'products');
  assert.deepEqual(
    (await rows(page, 'products')).map((cells) => cells.slice(0, 4)),
    [[DRAFT.title, DRAFT.handle, 'draft', DRAFT.sku]],
  );
  const publicProduct = () => served.app().app.inject({ url: `/public/v1/products/${DRAFT.handle}` });
  assert.equal((await publicProduct()).statusCode, 404);

  await page.getByRole('button', { name: DRAFT.title }).click();
  await page.getByRole('heading', { name: DRAFT.title, level: 3 }).waitFor();
  await page.getByRole('button', { name: 'Publish' }).click();
  await page.getByText(`Published: ${DRAFT.handle} is served by the public catalog.`).waitFor();
  assert.equal((await publicProduct()).statusCode, 200);
  assert.equal(await page.locator('[data-product="facts"] .badge').innerText(), 'published');

  await page.getByRole('button', { name: 'Withdraw (set to draft)' }).click();
  await page.getByText(`Withdrawn: ${DRAFT.handle} is a draft, no longer served.`).waitFor();
  assert.equal((await publicProduct()).statusCode, 404);
  const stored = await admin()('GET', `/admin/v1/products/${DRAFT.handle}`);
  assert.equal(stored.json().product.status, 'draft');
  assert.equal(stored.json().product.version, 3, 'published, then withdrawn: two writes');
  guarded.assertStayedHome();
});

test('changes a price and stock with If-Match; a change made meanwhile answers 412, which the console says and recovers from by a reload; the audit shows the changes', async (t) => {
  const guarded = await signedIn(t);
  if (!guarded) return;
  const { page } = guarded;
  await page.getByLabel('SKU').fill(DRAFT.sku);
  await page.getByRole('button', { name: 'Find' }).click();
  await answered(page, 'products');
  await page.getByRole('button', { name: DRAFT.title }).click();
  const variant = page.locator(`form.variant[data-sku="${DRAFT.sku}"]`);
  const eur = variant.getByLabel('Price in EUR', { exact: true });
  assert.equal(await eur.inputValue(), '6.90');
  const before = (await admin()('GET', `/admin/v1/products/${DRAFT.handle}`)).json().product.variants[0];

  await eur.fill('7.45');
  await variant.getByLabel('Stock', { exact: true }).fill('60');
  await variant.getByRole('button', { name: 'Save' }).click();
  await page.getByText(`Saved ${DRAFT.sku}: now at version ${before.version + 1}.`).waitFor();
  const saved = (await admin()('GET', `/admin/v1/variants/${before.id}`)).json().variant;
  assert.equal(euros(saved), 745);
  assert.equal(saved.inventory_quantity, 60);

  // Another system writes the variant behind the console's back.
  const behind = await admin()('PATCH', `/admin/v1/variants/${before.id}`, { prices: [{ currency: 'EUR', amount: 799 }] }, { authorization: `Bearer ${PIM_TOKEN}`, 'if-match': `"${saved.version}"` });
  assert.equal(behind.statusCode, 200, behind.body);

  await variant.getByLabel('Price in EUR', { exact: true }).fill('7.25');
  await variant.getByRole('button', { name: 'Save' }).click();
  const alert = page.locator('[data-message="product"]');
  await alert.getByText('412 PRECONDITION_FAILED').waitFor();
  assert.match(await alert.innerText(), new RegExp(`Not saved: the variant ${DRAFT.sku} was changed since you opened it \\(it is now at version ${saved.version + 1}\\)`));
  assert.equal(euros((await admin()('GET', `/admin/v1/variants/${before.id}`)).json().variant), 799, 'the stale write changed nothing');

  await alert.getByRole('button', { name: 'Reload the product' }).click();
  await page.getByText(/^Reloaded: /).waitFor();
  assert.equal(await variant.getByLabel('Price in EUR', { exact: true }).inputValue(), '7.99');
  await variant.getByLabel('Price in EUR', { exact: true }).fill('7.25');
  await variant.getByRole('button', { name: 'Save' }).click();
  await page.getByText(`Saved ${DRAFT.sku}: now at version ${saved.version + 2}.`).waitFor();

  // The audit, refreshed after each write: the console's two changes by erp, pim's between them.
  await page.locator('[data-list="audit"] tbody tr', { hasText: `${saved.version + 1} → ${saved.version + 2}` }).waitFor();
  const entries = (await rows(page, 'audit')).slice(0, 3).map(([, actor, action, target, versions]) => [actor, action, target, versions]);
  assert.deepEqual(entries, [
    ['erp', 'update', `variant ${before.id}`, `${saved.version + 1} → ${saved.version + 2}`],
    ['pim', 'update', `variant ${before.id}`, `${saved.version} → ${saved.version + 1}`],
    ['erp', 'update', `variant ${before.id}`, `${before.version} → ${saved.version}`],
  ]);
  guarded.assertStayedHome([412]);
});

test('pages the audit trail with its cursors, and filters it', async (t) => {
  const products = (await admin()('GET', '/admin/v1/products?limit=30')).json().products as { skus: string[] }[];
  const skus = products.flatMap((product) => product.skus).slice(0, 25);
  assert.equal(skus.length, 25);
  const bulk = await admin()('POST', '/admin/v1/inventory', { rows: skus.map((sku) => ({ sku, inventory_quantity: 5 })) }, { authorization: `Bearer ${PIM_TOKEN}` });
  assert.equal(bulk.statusCode, 200, bulk.body);

  const guarded = await signedIn(t);
  if (!guarded) return;
  const { page } = guarded;
  await page.locator('[data-list="audit"] tbody tr').first().waitFor();
  const first = await rows(page, 'audit');
  assert.equal(first.length, 20);
  const pager = page.locator('[data-pager="audit"]');
  assert.equal(await pager.getByRole('button', { name: 'Previous page' }).isDisabled(), true);
  await showsOtherPage(page, 'audit', () => pager.getByRole('button', { name: 'Next page' }).click());
  const second = await rows(page, 'audit');
  const expected = (await admin()('GET', '/admin/v1/audit?limit=40')).json().entries.slice(20, 20 + second.length);
  const shown = (entries: string[][]) => entries.map(([, actor, action, target]) => [actor, action, target]);
  assert.deepEqual(
    shown(second),
    expected.map((entry: { actor: string; action: string; target_type: string; target_id: string }) => [entry.actor, entry.action, `${entry.target_type} ${entry.target_id}`]),
  );
  await showsOtherPage(page, 'audit', () => pager.getByRole('button', { name: 'Previous page' }).click());
  assert.deepEqual(shown(await rows(page, 'audit')), shown(first));
  assert.equal(await pager.getByRole('button', { name: 'Previous page' }).isDisabled(), true);

  await page.getByLabel('Actor').fill('seed');
  await page.getByLabel('Target', { exact: true }).selectOption('catalog');
  await showsOtherPage(page, 'audit', () => page.getByRole('button', { name: 'Show' }).click());
  const seeded = (await admin()('GET', '/admin/v1/audit?actor=seed&target_type=catalog')).json().entries;
  assert.ok(seeded.length > 0);
  assert.deepEqual(shown(await rows(page, 'audit')), shown(seeded.map((entry: { actor: string; action: string; target_type: string; target_id: string }) => ['', entry.actor, entry.action, `${entry.target_type} ${entry.target_id}`])));
  assert.equal(await pager.getByRole('button', { name: 'Next page' }).isDisabled(), true);
  guarded.assertStayedHome();
});

describe('webhooks', () => {
  let receiver: WebhookReceiver | undefined;
  before(async () => {
    receiver = await startReceiver();
  });
  after(() => receiver?.close());

  test('shows webhook subscriptions and a subscription\'s recent deliveries', async (t) => {
    const created = await admin()('POST', '/admin/v1/webhooks', { url: `${receiver!.url}/hooks`, event_types: ['product.updated'], description: 'console test' });
    assert.equal(created.statusCode, 201, created.body);
    const { id } = created.json().webhook;
    assert.equal((await admin()('POST', `/admin/v1/webhooks/${id}/test`)).statusCode, 202);

    const guarded = await signedIn(t);
    if (!guarded) return;
    const { page } = guarded;
    const row = page.locator('[data-list="webhooks"] tbody tr', { hasText: `${receiver!.url}/hooks` });
    await row.waitFor();
    assert.match(await row.innerText(), /catalog\s+product\.updated\s+active/);
    await row.getByRole('button', { name: 'Deliveries' }).click();
    await page.getByRole('heading', { name: `Recent deliveries to ${receiver!.url}/hooks` }).waitFor();
    const deliveries = await rows(page, 'deliveries');
    assert.equal(deliveries.length, 1);
    assert.equal(deliveries[0]![0], 'webhook.test');
    guarded.assertStayedHome();
  });
});

describe('imports', () => {
  const ENDED = /^(succeeded|failed|cancelled)$/;
  /** A hang guard only: 10,000 products are written in batches, on a machine other work may keep busy. */
  const IMPORT_TIMEOUT_MS = 600_000;

  /** Records every status and progress line the job panel shows, from now on. */
  const recordJobPanel = (page: Page) =>
    page.evaluate(() => {
      // No named function in here: tsx would wrap it in a helper the page does not have.
      const w = globalThis as any;
      w.seenJob = [];
      new w.MutationObserver(() =>
        w.seenJob.push([w.document.querySelector('[data-job="status"]').textContent, w.document.querySelector('[data-job="counts"]').textContent]),
      ).observe(w.document.querySelector('[data-job]'), { subtree: true, childList: true, characterData: true });
    });
  const jobPanelSeen = (page: Page): Promise<[string, string][]> => page.evaluate(() => (globalThis as any).seenJob);

  test('starts an import of 10,000 products from a chosen file and watches it to the end: progress, then succeeded with its report', async (t) => {
    const catalog = generateCatalog({ products: 10_000, seed: 28 });
    const guarded = await signedIn(t);
    if (!guarded) return;
    const { page } = guarded;
    await recordJobPanel(page);
    await page.getByLabel('Catalog file').setInputFiles({ name: 'catalog-10000.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(catalog)) });
    await page.getByRole('button', { name: 'Start import' }).click();
    await page.locator('[data-job="status"]', { hasText: ENDED }).waitFor({ timeout: IMPORT_TIMEOUT_MS });

    assert.equal(await page.locator('[data-job="status"]').innerText(), 'succeeded');
    const seen = await jobPanelSeen(page);
    assert.ok(!ENDED.test(seen[0]![0]), `the job was shown before it ended: ${JSON.stringify(seen[0])}`);
    const written = seen.map(([, counts]) => Number(/written ([\d,]+)/.exec(counts)?.[1]?.replace(/,/g, '') ?? NaN)).filter((n) => !Number.isNaN(n));
    assert.deepEqual(written, [...written].sort((a, b) => a - b), 'progress only grows');
    assert.equal(written.at(-1), 10_000);
    assert.equal(await page.locator('[data-job="progress"]').evaluate((bar) => (bar as unknown as { value: number }).value), 1);

    const report = page.locator('[data-job="outcome"] dl.report');
    assert.match(await report.innerText(), /Products\s+10,000 created, 0 updated/);
    const jobs = (await admin()('GET', '/admin/v1/imports')).json().jobs;
    const [job] = jobs;
    assert.equal(job.status, 'succeeded');
    assert.equal(job.report.products.created, 10_000);
    assert.match(await report.innerText(), new RegExp(`Catalog version\\s+${job.catalog_versions.before} → ${job.catalog_versions.after}`));
    assert.equal(await page.getByRole('heading', { name: `Import ${job.id}` }).count(), 1);
    await page.locator('[data-list="imports"] tbody tr', { hasText: 'succeeded' }).waitFor();
    const [row] = await rows(page, 'imports');
    assert.deepEqual(row!.slice(1, 5), ['erp', 'succeeded', '10,000 of 10,000', `${job.catalog_versions.before} → ${job.catalog_versions.after}`]);
    guarded.assertStayedHome();
  });

  test('an invalid file is uploaded as a job that ends failed, and the console lists its problems', async (t) => {
    const guarded = await signedIn(t);
    if (!guarded) return;
    const { page } = guarded;
    await page.getByLabel('Catalog file').setInputFiles({ name: 'bad.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ version: 1, products: [{ handle: 'Not A Handle' }] })) });
    await page.getByLabel('Set products the file lacks to draft').check();
    const upload = page.waitForRequest((request) => request.method() === 'POST' && new URL(request.url()).pathname === '/admin/v1/imports');
    await page.getByRole('button', { name: 'Start import' }).click();
    const sent = await upload;
    assert.equal(new URL(sent.url()).search, '?unpublish_missing=true');
    assert.equal(sent.headers()['content-type'], 'application/json');
    assert.equal(sent.headers().authorization, `Bearer ${ERP_TOKEN}`);

    await page.locator('[data-job="status"]', { hasText: ENDED }).waitFor({ timeout: IMPORT_TIMEOUT_MS });
    assert.equal(await page.locator('[data-job="status"]').innerText(), 'failed');
    const [job] = (await admin()('GET', '/admin/v1/imports?limit=1')).json().jobs;
    assert.equal(job.status, 'failed');
    const problems = page.locator('[data-job="outcome"] .problem li');
    assert.equal(await problems.count(), Math.min(job.error.details.problems.length, 10));
    assert.equal(await problems.first().innerText(), `${job.error.details.problems[0].path}: ${job.error.details.problems[0].message}`);

    // The recent imports, newest first: this one, then the 10,000 products of the test before, shown again.
    await page.getByRole('button', { name: 'List recent imports' }).click();
    const listed = page.locator('[data-list="imports"] tbody tr');
    await listed.first().getByText('failed').waitFor();
    const [, earlier] = (await admin()('GET', '/admin/v1/imports?limit=2')).json().jobs;
    await listed.nth(1).getByRole('button', { name: 'Show' }).click();
    await page.getByRole('heading', { name: `Import ${earlier.id}` }).waitFor();
    assert.equal(await page.locator('[data-job="status"]').innerText(), 'succeeded');
    guarded.assertStayedHome();
  });
});
