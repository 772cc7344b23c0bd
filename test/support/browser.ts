import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, type TestContext } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../../tools/chromium.js';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app.js';

/** A fresh browser context whose every request is checked: only `allowedOrigins` may be reached. */
export interface GuardedPage {
  page: Page;
  context: BrowserContext;
  /**
   * Fails the test if the page asked for anything on another origin (each such request was
   * aborted) or reported an error, other than answers of these statuses, in this order: the
   * refusals a page asks for on purpose (Chromium reports each as a console error).
   */
  assertStayedHome(refusedStatuses?: number[]): void;
}

export interface BrowserUse {
  /** A new guarded page, or undefined after skipping the test when no browser can start on this machine. */
  open(t: TestContext, allowedOrigins: string[]): Promise<GuardedPage | undefined>;
}

/**
 * How long one browser step (a click, a wait for an element) may take before the test
 * fails: only a hang guard, with room for a machine whose cores other work keeps busy
 * (10 s timed out there).
 */
const STEP_TIMEOUT_MS = 60_000;

/** How Chromium reports an answer with an error status to the page's console. */
const REFUSED_LOAD = /^Failed to load resource: the server responded with a status of (\d{3})\b/;

/**
 * One Chromium for the enclosing file or `describe`, launched before its first test and
 * closed after its last. Where none can start, each test is skipped saying why; any
 * other problem fails it.
 */
export function useBrowser(): BrowserUse {
  let browser: Browser | undefined;
  let unavailable = '';
  const contexts: BrowserContext[] = [];
  before(async () => {
    const launched = await launchChromium();
    if ('browser' in launched) browser = launched.browser;
    else unavailable = launched.unavailable;
  });
  after(async () => {
    for (const context of contexts) await context.close();
    await browser?.close();
  });
  return {
    open: async (t, allowedOrigins) => {
      if (!browser) {
        t.skip(`browser tests need Chromium: ${unavailable}`);
        return undefined;
      }
      const context = await browser.newContext();
      contexts.push(context);
      const outside: string[] = [];
      await context.route('**/*', (route) => {
        const url = route.request().url();
        if (allowedOrigins.includes(new URL(url).origin)) return route.continue();
        outside.push(url);
        return route.abort('blockedbyclient');
      });
      const page = await context.newPage();
      page.setDefaultTimeout(STEP_TIMEOUT_MS);
      const failures: string[] = [];
      const refused: number[] = [];
      page.on('pageerror', (error) => failures.push(`page error: ${error.message}`));
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        const status = REFUSED_LOAD.exec(message.text())?.[1];
        if (status === undefined) failures.push(`console error: ${message.text()}`);
        else refused.push(Number(status));
      });
      return {
        page,
        context,
        assertStayedHome: (refusedStatuses = []) => {
          assert.deepEqual(outside, [], 'the page asked for something on another host');
          assert.deepEqual(failures, [], 'the page reported errors (a CSP violation is one)');
          assert.deepEqual(refused, refusedStatuses, 'the statuses of the requests the server refused');
        },
      };
    },
  };
}

/** A port nobody listens on now, so the app can be told its public URL before it listens. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The test app listening on 127.0.0.1, its public base URL (the document's `servers`,
 * which try-it calls) being the address it listens on.
 */
export function useServedApp(options: TestAppOptions = {}): { app: () => TestApp; url: () => string } {
  let testApp: TestApp | undefined;
  let url = '';
  before(async () => {
    const port = await freePort();
    url = `http://127.0.0.1:${port}`;
    testApp = await startTestApp({ ...options, config: { ...options.config, publicBaseUrl: url } });
    await testApp.app.listen({ host: '127.0.0.1', port });
  });
  after(() => testApp?.close());
  return { app: () => testApp!, url: () => url };
}
