/** A page of Debian's headless Chromium, driven by playwright-core, for the tests that look at what a browser shows. */
import { existsSync } from 'node:fs';
import type { Page } from 'playwright-core';

const CHROMIUM = '/usr/bin/chromium';

/** Runs `work` on a fresh page of a browser launched for it, and closes the browser whatever happens. */
export async function withChromiumPage(
  viewport: { readonly width: number; readonly height: number },
  work: (page: Page) => Promise<void>,
): Promise<void> {
  if (!existsSync(CHROMIUM)) throw new Error(`${CHROMIUM} is missing: apt-get install -y chromium`);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
  });
  try {
    await work(await browser.newPage({ viewport }));
  } finally {
    await browser.close();
  }
}
