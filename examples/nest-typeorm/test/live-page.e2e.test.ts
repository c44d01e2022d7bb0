/**
 * The example's live page at `/`, in headless Chromium: it lists the books, and a book created over REST appears on
 * it without a reload (Server-Sent Events from `GET /books/events`); patched and deleted books follow. A screenshot is
 * saved under test-output/realtime/.
 */
import type { INestApplication } from '@nestjs/common';
import { withChromiumPage } from '../../../test/support/chromium-page';
import { writeTestOutput } from '../../../test/support/openapi-checks';
import { listenExample } from './example-app';
import { bearer } from './tokens';

const EDITOR = { ...bearer('editor'), 'content-type': 'application/json' };

describe('examples/nest-typeorm live page', () => {
  let app: INestApplication;
  let base: string;

  beforeAll(async () => {
    ({ app, base } = await listenExample());
  });

  afterAll(async () => {
    await app?.close();
  });

  it('shows a book created over REST without a reload, then its change and its removal', async () => {
    await withChromiumPage({ width: 900, height: 700 }, async (page) => {
      await page.goto(`${base}/`);
      await page.waitForSelector('#status.live');
      const before = await page.locator('#books li').count();
      expect(before).toBeGreaterThan(0);
      const created = await fetch(`${base}/books`, {
        method: 'POST',
        headers: EDITOR,
        body: JSON.stringify({ title: 'Aaa, Live From The Stream', pages: 321 }),
      });
      expect(created.status).toBe(201);
      const { id } = (await created.json()) as { id: number };
      const row = page.locator(`#books li[data-id="${id}"]`);
      await row.waitFor();
      expect(await row.textContent()).toContain('Aaa, Live From The Stream');
      expect(await page.locator('#books li').count()).toBe(before + 1);
      writeTestOutput('realtime/live-page.png', await page.screenshot());
      await fetch(`${base}/books/${id}`, { method: 'PATCH', headers: EDITOR, body: JSON.stringify({ pages: 322 }) });
      await row.filter({ hasText: '322 pages' }).waitFor();
      await fetch(`${base}/books/${id}`, { method: 'DELETE', headers: bearer('editor') });
      await row.waitFor({ state: 'detached' });
      expect(await page.locator('#books li').count()).toBe(before);
    });
  }, 60000);
});
