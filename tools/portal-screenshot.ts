// Writes docs/portal.png, the README's picture of the developer portal's home page:
// the service on the demo catalog in memory, photographed by the machine's Chromium
// (the browser tests' launcher). `npm run docs:screenshot`.
import { fileURLToPath } from 'node:url';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { commandLineOrExit } from '../src/lib/command-line.js';
import { launchChromium } from './chromium.js';

commandLineOrExit(
  `usage: npm run docs:screenshot

Redraws docs/portal.png, the README's picture of the developer portal's home page: the
service on the demo catalog in memory, photographed by the machine's Chromium (Debian:
apt-get install chromium). Takes no options.`,
  {},
);

const OUTPUT = fileURLToPath(new URL('../docs/portal.png', import.meta.url));

// The URLs the page prints are those of a default `npm start`, wherever this one listens.
const config = { ...loadConfig({}), dataDir: ':memory:', sqlitePath: ':memory:', catalogSeed: 'demo', publicBaseUrl: 'http://127.0.0.1:3000' };
const app = await buildApp({ config, logger: false });
const launched = await launchChromium();
try {
  if (!('browser' in launched)) throw new Error(launched.unavailable);
  const address = await app.listen({ host: '127.0.0.1', port: 0 });
  const page = await launched.browser.newPage({ viewport: { width: 1100, height: 800 }, deviceScaleFactor: 1 });
  await page.goto(`${address}/`);
  await page.screenshot({ path: OUTPUT, fullPage: true });
  console.log(`wrote ${OUTPUT}`);
} finally {
  if ('browser' in launched) await launched.browser.close();
  await app.close();
}
