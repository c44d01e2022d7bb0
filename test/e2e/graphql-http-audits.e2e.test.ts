/**
 * The example app's `/graphql` against graphql-http's own GraphQL-over-HTTP audits: every MUST passes; SHOULD and MAY
 * results are counted (and the failing ones named) in the log. Also: the request a Nest guard marked reaches policy,
 * and the schema printed in docs/reference/graphql-schema.graphql is the one the example serves.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { buildClientSchema, getIntrospectionQuery, printSchema, type IntrospectionQuery } from 'graphql';
import { serverAudits, type AuditResult } from 'graphql-http';
import { listenExample } from '../../examples/nest-typeorm/test/example-app';
import { bearer } from '../../examples/nest-typeorm/test/tokens';
import { dataOf, errorOf, postGraphql } from './support/graphql-http';
import { report } from '../support/test-report';

const SDL_PATH = join(__dirname, '..', '..', 'docs', 'reference', 'graphql-schema.graphql');
const SDL_HEADER =
  '# The GraphQL schema of the example app (examples/nest-typeorm), as served at /graphql.\n' +
  '# Derived from its entities by @svc/graphql; test/e2e/graphql-http-audits.e2e.test.ts keeps it in step\n' +
  '# (run it with SVC_WRITE_GRAPHQL_SDL=1 to rewrite this file).\n\n';

describe('the example app over GraphQL', () => {
  let app: INestApplication;
  let url: string;

  beforeAll(async () => {
    const example = await listenExample();
    app = example.app;
    url = `${example.base}/graphql`;
  });

  afterAll(async () => {
    await app?.close();
  });

  describe("graphql-http's server audits", () => {
    let results: AuditResult[];

    beforeAll(async () => {
      results = [];
      for (const audit of serverAudits({ url })) results.push(await audit.fn());
      const tally = (level: 'MUST' | 'SHOULD' | 'MAY') => {
        const of = results.filter((result) => result.name.startsWith(level));
        const failed = of.filter((result) => result.status !== 'ok');
        return `${level}: ${of.length - failed.length}/${of.length} pass${failed.map((result) => `\n  ${result.status}: ${result.name}`).join('')}`;
      };
      report(['graphql-http audits of /graphql', tally('MUST'), tally('SHOULD'), tally('MAY')].join('\n'));
    });

    it('passes every MUST', () => {
      const failed = results.filter((result) => result.name.startsWith('MUST') && result.status !== 'ok');
      expect(failed.map((result) => `${result.name}: ${'reason' in result ? result.reason : ''}`)).toEqual([]);
    });

    it('ran the audits (13 MUST in graphql-http 1.23)', () => {
      expect(results.filter((result) => result.name.startsWith('MUST')).length).toBeGreaterThanOrEqual(13);
    });

    it('passes every SHOULD and MAY as well', () => {
      const failed = results.filter((result) => !result.name.startsWith('MUST') && result.status !== 'ok');
      expect(failed.map((result) => result.name)).toEqual([]);
    });
  });

  describe('the caller', () => {
    it("reaches policy as request.user (set by the app's guard): a reader cannot write", async () => {
      const server = app.getHttpServer();
      const query = 'mutation { createTag(input: { name: "gql-tag" }) { id name } }';
      errorOf(await postGraphql(server, { query, headers: bearer('reader') }), 'SVC_FORBIDDEN');
      const answer = await postGraphql<{ createTag: { name: string } }>(server, {
        query,
        headers: bearer('editor'),
      });
      expect(dataOf(answer).createTag.name).toBe('gql-tag');
    });

    it('answers the same page of books with their author as REST include=author (keys as ID text)', async () => {
      const fields = 'id title isbn pages rating published featured authorId createdAt updatedAt deletedAt';
      const answer = await postGraphql<{ books: { items: unknown[] } }>(app.getHttpServer(), {
        query: `{ books(limit: 20) { items { ${fields} author { id name country bornYear createdAt } } } }`,
      });
      const rest = (await (await fetch(url.replace('/graphql', '/books?include=author&limit=20'))).json()) as {
        items: unknown[];
      };
      const same = (value: unknown) =>
        JSON.stringify(value, (key, inner: unknown) => (key === 'id' ? String(inner) : inner));
      expect(same(dataOf(answer).books.items)).toBe(same(rest.items));
    });

    it('reads the seeded books with their author', async () => {
      const answer = await postGraphql<{ books: { total: number; items: { author: { name: string } | null }[] } }>(
        app.getHttpServer(),
        { query: '{ books(limit: 20) { total items { title author { name } } } }' },
      );
      expect(dataOf(answer).books.total).toBe(30);
      expect(dataOf(answer).books.items).toHaveLength(20);
      expect(dataOf(answer).books.items.every((book) => book.author !== undefined)).toBe(true);
    });
  });

  describe('docs/reference/graphql-schema.graphql', () => {
    it('is the schema the example serves', async () => {
      const answer = await postGraphql<IntrospectionQuery>(app.getHttpServer(), { query: getIntrospectionQuery() });
      // Formatted as the repository formats it, so `prettier --check` and this test agree.
      const printed = SDL_HEADER + printSchema(buildClientSchema(dataOf(answer)));
      const sdl = execFileSync(
        process.execPath,
        [require.resolve('prettier/bin/prettier.cjs'), '--stdin-filepath', SDL_PATH],
        {
          input: printed,
          encoding: 'utf8',
        },
      );
      if (process.env['SVC_WRITE_GRAPHQL_SDL'] === '1') writeFileSync(SDL_PATH, sdl);
      expect(readFileSync(SDL_PATH, 'utf8')).toBe(sdl);
    });
  });
});
