import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Where Debian, Ubuntu and the Chrome packages install the browser; CHROMIUM_PATH names another. */
const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome', '/usr/bin/google-chrome-stable'];

export type ChromiumLaunch = { browser: Browser } | { unavailable: string };

/**
 * Starts the machine's Chromium through playwright-core (which downloads no browser of
 * its own). Says why when none can start: no executable, or a launch that fails.
 */
export async function launchChromium(executablePath = process.env.CHROMIUM_PATH ?? CANDIDATES.find((path) => existsSync(path))): Promise<ChromiumLaunch> {
  if (!executablePath) return { unavailable: `no Chromium found (looked for ${CANDIDATES.join(', ')}; set CHROMIUM_PATH)` };
  try {
    // As root (CI) Chromium refuses to start with its sandbox; the pages are our own.
    const args = process.getuid?.() === 0 ? ['--no-sandbox'] : [];
    return { browser: await chromium.launch({ executablePath, args }) };
  } catch (error) {
    return { unavailable: `Chromium at ${executablePath} did not start: ${(error as Error).message.split('\n')[0]}` };
  }
}
