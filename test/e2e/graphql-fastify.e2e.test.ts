/**
 * The GraphQL endpoint on Nest's Fastify platform: the same controller answers graphql-http's audits (every MUST),
 * and the request Fastify hands over reaches policy.
 */
import type { SvcContext } from '@svc/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SvcModule } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import { serverAudits, type AuditResult } from 'graphql-http';
import { BOOKSTORE_ENTITIES, Tag } from '../fixtures/bookstore-entities';
import { svcController } from '../support/create-test-app';

function roleOf(context: SvcContext): unknown {
  return (context.request as { headers?: Record<string, unknown> } | undefined)?.headers?.['x-role'];
}

describe('GraphQL on the Fastify platform', () => {
  let app: NestFastifyApplication;
  let url: string;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot({
          type: 'better-sqlite3',
          database: ':memory:',
          entities: BOOKSTORE_ENTITIES,
          synchronize: true,
        }),
        SvcModule.forRoot({
          infrastructure: typeorm(),
          graphql: true,
          policy: ({ operation, context }) => operation.startsWith('find') || roleOf(context) === 'editor',
        }),
      ],
      controllers: [svcController('tags', Tag)],
    }).compile();
    app = moduleRef.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
    await app.listen(0, '127.0.0.1');
    url = `${await app.getUrl()}/graphql`;
  });

  afterAll(async () => {
    await app?.close();
  });

  it("passes every MUST of graphql-http's audits", async () => {
    const results: AuditResult[] = [];
    for (const audit of serverAudits({ url })) results.push(await audit.fn());
    const failed = results.filter((result) => result.name.startsWith('MUST') && result.status !== 'ok');
    expect(failed.map((result) => result.name)).toEqual([]);
    expect(results.filter((result) => result.name.startsWith('MUST')).length).toBeGreaterThanOrEqual(13);
  });

  it("hands Fastify's request to policy", async () => {
    const post = (role: string) =>
      fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-role': role },
        body: JSON.stringify({ query: 'mutation { createTag(input: { name: "fast" }) { name } }' }),
      }).then((response) => response.json() as Promise<{ data: unknown; errors?: { extensions: { code: string } }[] }>);
    expect((await post('reader')).errors?.[0]?.extensions.code).toBe('SVC_FORBIDDEN');
    expect((await post('editor')).data).toEqual({ createTag: { name: 'fast' } });
  });
});
