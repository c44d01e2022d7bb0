/**
 * The example's API documentation: the OpenAPI 3.1 document at `/docs-json` is valid and lint-clean, every request it
 * allows is answered as it says (generated from the document itself), and Swagger UI at `/docs` renders it.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { dereferenced, lintOpenApi, validateOpenApi, writeTestOutput } from '../../../test/support/openapi-checks';
import { createAjv, exerciseDocument, type OpenApiPaths } from '../../../test/support/openapi-requests';
import { serveApiDocs } from '../src/api-docs';
import { withChromiumPage } from '../../../test/support/chromium-page';
import { listenExample } from './example-app';
import { bearer } from './tokens';

type Server = Parameters<typeof request>[0];

const ADMIN = bearer('admin');

/**
 * The app as an admin calls it: a request without a token gets the admin's. The document shows the widest view (an
 * admin's: `supplierCost` and `featured` of a book, which a reader or an editor is refused), so that is who may send
 * every request it allows.
 */
function asAdmin(server: Server): (request: IncomingMessage, response: ServerResponse) => void {
  return (request, response) => {
    request.headers.authorization ??= ADMIN.authorization;
    (server as { emit(event: 'request', ...args: unknown[]): boolean }).emit('request', request, response);
  };
}

describe('examples/nest-typeorm API docs', () => {
  let app: INestApplication;
  let server: Server;
  let document: OpenApiPaths & { openapi: string };

  beforeAll(async () => {
    ({ app } = await listenExample(serveApiDocs));
    server = app.getHttpServer() as Server;
    document = (await request(server).get('/docs-json').expect(200)).body;
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('GET /docs-json', () => {
    it('is an OpenAPI 3.1 document valid for @apidevtools/swagger-parser', async () => {
      expect(document.openapi).toBe('3.1.0');
      await expect(validateOpenApi(document)).resolves.toBeUndefined();
    });

    it("passes Redocly's recommended rules with no error", async () => {
      const result = await lintOpenApi(document, 'example');
      expect(result.problems.filter((problem) => problem.severity === 'error')).toEqual([]);
      expect(result.exitCode).toBe(0);
    }, 60000);

    it('lists the books operations by readable ids', () => {
      const ids = Object.values(document.paths['/books'] ?? {}).map((op) => op.operationId);
      expect(ids.sort()).toEqual(['createOneBook', 'deleteManyBooks', 'findManyBooks', 'updateManyBooks']);
      expect(document.paths['/books/batch']?.['post']?.operationId).toBe('createManyBooks');
      expect(document.paths['/books/{id}/publish']?.['patch']?.operationId).toBe('publishOneBook');
    });
  });

  describe('every request the document allows', () => {
    it('is answered 2xx or a documented 4xx, and every 2xx body matches its documented schema', async () => {
      const result = await exerciseDocument({ server: asAdmin(server), document, writeHeaders: ADMIN });
      expect(result.failures).toEqual([]);
      expect(result.requests).toBeGreaterThan(250);
      // What the document allows is never refused as malformed: the 4xx left are states (a row referenced, gone).
      expect(result.refused.filter((answer) => / 4(00|13|15) /.test(answer))).toEqual([]);
      // Writes really happened: created, replaced, changed, deleted, restored and purged.
      expect(result.statuses.get(201)).toBeGreaterThan(0);
      expect(result.statuses.get(204)).toBeGreaterThan(0);
    }, 120000);

    it('a cursor page leads to the next by meta.nextCursor, both matching the documented envelope', async () => {
      const envelope =
        dereferenced(document).paths['/reviews']!['get']!.responses['200']!.content!['application/json']!.schema;
      const first = await request(server).get('/reviews').query({ limit: 2 }).expect(200);
      const next = await request(server)
        .get('/reviews')
        .query({ limit: 2, cursor: first.body.meta.nextCursor })
        .expect(200);
      const validate = createAjv().compile(envelope);
      expect(validate(first.body)).toBe(true);
      expect(validate(next.body)).toBe(true);
      expect(next.body.items[0].id).not.toBe(first.body.items[0].id);
    });
  });

  describe('GET /docs in headless Chromium', () => {
    it('renders Swagger UI listing the books operations, and saves a screenshot', async () => {
      await withChromiumPage({ width: 1280, height: 2400 }, async (page) => {
        const { port } = (app.getHttpServer() as { address(): AddressInfo }).address();
        await page.goto(`http://127.0.0.1:${port}/docs`);
        await page.waitForSelector('.opblock-summary-path', { timeout: 30000 });
        const text = await page.locator('#swagger-ui').innerText();
        writeTestOutput('openapi/swagger-ui.png', await page.screenshot({ fullPage: false }));
        expect(text).toContain('Svc bookstore');
        expect(text).toContain('OAS 3.1');
        for (const summary of ['List Books', 'Read one Book', 'Create a Book', 'Publish one Book']) {
          expect(text).toContain(summary);
        }
        expect(text).toContain('/books/{id}/publish');
      });
    }, 90000);

    it('sends a JSON filter from "Try it out" and shows the filtered page', async () => {
      await withChromiumPage({ width: 1280, height: 2400 }, async (page) => {
        const { port } = (app.getHttpServer() as { address(): AddressInfo }).address();
        await page.goto(`http://127.0.0.1:${port}/docs#/Books/findManyBooks`);
        const operation = page.locator('#operations-Books-findManyBooks');
        await operation.waitFor({ timeout: 30000 });
        if (!(await operation.locator('.try-out__btn').isVisible()))
          await operation.locator('.opblock-summary').click();
        await operation.locator('.try-out__btn').click();
        // The `filter` parameter is JSON (`content: application/json`): Swagger UI gives it a JSON text area.
        const filter = operation.locator('tr[data-param-name="filter"] textarea');
        await filter.fill(
          JSON.stringify({ or: [{ title: { eq: 'Kindred' } }, { title: { eq: 'The Dispossessed' } }] }),
        );
        await operation.locator('.execute').click();
        const responseBody = operation.locator(
          '.responses-wrapper .live-responses-table .response-col_description pre',
        );
        await responseBody.first().waitFor({ timeout: 30000 });
        const requestUrl = await operation.locator('.request-url pre').innerText();
        writeTestOutput('openapi/swagger-ui-json-filter.png', await page.screenshot({ fullPage: false }));
        expect(decodeURIComponent(requestUrl)).toContain('filter={"or":[{"title":{"eq":"Kindred"}}');
        const body = JSON.parse(await responseBody.first().innerText()) as { items: { title: string }[] };
        expect(body.items.map((item) => item.title).sort()).toEqual(['Kindred', 'The Dispossessed']);
      });
    }, 90000);
  });
});
