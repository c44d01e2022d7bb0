/**
 * Tracing with the OpenTelemetry SDK registered (an in-memory exporter, async-local context): every operation is one
 * span named `<Entity>.<operation>`, with its surface (REST, GraphQL, the agent tools, a call in code), its outcome or
 * problem code, its status, the rows it answered or wrote and the statements it sent; a span the database layer starts
 * while the operation runs nests below the operation's (as a driver's instrumentation does), and the operation's nests
 * below the caller's. `tracing: false` records none.
 */
import { context, SpanStatusCode, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';
import type { Type } from '@nestjs/common';
import { createSvc } from '@svc/core';
import { SvcRegistry } from '@svc/nestjs';
import { typeorm } from '@svc/typeorm';
import request from 'supertest';
import { DataSource, type Logger } from 'typeorm';
import { BOOKSTORE_ENTITIES, Tag } from '../fixtures/bookstore-entities';
import { svcController } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { dataOf, postGraphql } from './support/graphql-http';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { connectMcp } from './support/mcp-clients';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const contextManager = new AsyncLocalStorageContextManager().enable();

/** Starts and ends a span for each statement in the active context, as a database driver's instrumentation does. */
class DriverSpans implements Logger {
  logQuery(query: string): void {
    trace
      .getTracer('driver')
      .startSpan('db.query', { attributes: { 'db.query.text': query } })
      .end();
  }
  logQueryError(): void {}
  logQuerySlow(): void {}
  logSchemaBuild(): void {}
  logMigration(): void {}
  log(): void {}
}

const Tags = svcController('tags', Tag, {
  operations: { findMany: true, findOne: true, createOne: true, patchOne: true, deleteOne: true },
  policy: ({ operation, context: ctx }) =>
    operation.startsWith('find') || (ctx.request as { user?: { role?: string } })?.user?.role === 'editor',
});

const EDITOR = { 'x-user': 'ed:t1:editor' };
const VIEWER = { 'x-user': 'vi:t1:viewer' };

const svcSpans = () => exporter.getFinishedSpans().filter((span) => span.instrumentationScope.name === '@svc/core');
const only = (name: string): ReadableSpan => {
  const found = svcSpans().filter((span) => span.name === name);
  expect(found).toHaveLength(1);
  return found[0]!;
};
const parentOf = (span: ReadableSpan) => span.parentSpanContext?.spanId;

beforeAll(() => {
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(contextManager);
});
afterAll(async () => {
  await provider.shutdown();
  trace.disable();
  context.disable();
});

describe.each(TEST_DATABASES)('a span per operation, on $name', (db) => {
  let t: McpApp;
  let origin: string;

  beforeAll(async () => {
    t = await startMcpApp({
      db,
      suite: 'e2e_tracing',
      entities: BOOKSTORE_ENTITIES,
      controllers: [Tags as Type],
      svc: { graphql: true },
      dataSource: { logger: new DriverSpans(), logging: true },
    });
    origin = new URL(t.url).origin;
    await t.dataSource.getRepository(Tag).save([{ name: 'red' }, { name: 'green' }, { name: 'blue' }]);
  });
  afterAll(async () => {
    await t?.close();
  });
  beforeEach(() => exporter.reset());

  it('names a REST list by entity and operation, with its surface, outcome, rows and statements', async () => {
    await request(origin).get('/tags?limit=2').expect(200);
    const span = only('Tag.findMany');
    expect(span.attributes).toMatchObject({
      'svc.entity': 'Tag',
      'svc.operation': 'findMany',
      'svc.surface': 'rest',
      'svc.outcome': 'ok',
      'svc.status': 200,
      'svc.rows': 2,
    });
    const statements = span.attributes['svc.statements'] as number;
    expect(statements).toBeGreaterThanOrEqual(1);
    // What the database layer recorded while the operation ran nests below it: one span per statement it counted.
    const driver = exporter
      .getFinishedSpans()
      .filter((s) => s.name === 'db.query' && parentOf(s) === span.spanContext().spanId);
    expect(driver.length).toBeGreaterThanOrEqual(statements);
    expect(span.status.code).toBe(SpanStatusCode.UNSET);
  });

  it('records a write: the rows it wrote, and a refusal as its problem code without marking the span an error', async () => {
    await request(origin).patch('/tags/1').set(EDITOR).send({ name: 'crimson' }).expect(200);
    expect(only('Tag.patchOne').attributes).toMatchObject({ 'svc.outcome': 'ok', 'svc.status': 200, 'svc.rows': 1 });
    exporter.reset();
    await request(origin).patch('/tags/1').set(VIEWER).send({ name: 'no' }).expect(403);
    const refused = only('Tag.patchOne');
    expect(refused.attributes).toMatchObject({ 'svc.outcome': 'SVC_FORBIDDEN', 'svc.status': 403 });
    expect(refused.status.code).toBe(SpanStatusCode.UNSET);
    exporter.reset();
    await request(origin).get('/tags/999').expect(404);
    expect(only('Tag.findOne').attributes).toMatchObject({ 'svc.outcome': 'SVC_NOT_FOUND', 'svc.status': 404 });
  });

  it('names the surface of a GraphQL field and of an agent tool', async () => {
    const answer = await postGraphql<{ tags: { items: unknown[] } }>(t.app.getHttpServer(), {
      query: '{ tags(limit: 3) { items { name } } }',
    });
    expect(dataOf(answer).tags.items).toHaveLength(3);
    expect(only('Tag.findMany').attributes).toMatchObject({ 'svc.surface': 'graphql', 'svc.rows': 3 });
    exporter.reset();
    const client = await connectMcp('v2 client, 2026-07-28', { url: t.url, headers: VIEWER });
    try {
      const result = await client.callTool('tag_find_one', { id: 2 });
      expect(result.isError).toBeFalsy();
    } finally {
      await client.close();
    }
    expect(only('Tag.findOne').attributes).toMatchObject({ 'svc.surface': 'mcp', 'svc.outcome': 'ok', 'svc.rows': 1 });
  });

  it("nests below the caller's span, and names a call made in code as the service's", async () => {
    const tags = t.app.get(SvcRegistry).serviceFor(Tag);
    const parent = trace.getTracer('app').startSpan('job');
    await context.with(trace.setSpan(context.active(), parent), () => tags.findMany({ limit: 1 }));
    parent.end();
    const span = only('Tag.findMany');
    expect(span.attributes).toMatchObject({ 'svc.surface': 'service', 'svc.rows': 1 });
    expect(parentOf(span)).toBe(parent.spanContext().spanId);
    expect(span.spanContext().traceId).toBe(parent.spanContext().traceId);
  });
});

describe('tracing: false', () => {
  it('records no span, and the operation runs as before', async () => {
    const dataSource = await new DataSource({
      type: 'better-sqlite3',
      database: ':memory:',
      entities: BOOKSTORE_ENTITIES,
      synchronize: true,
    }).initialize();
    try {
      await dataSource.getRepository(Tag).save({ name: 'red' });
      exporter.reset();
      const traced = createSvc({ infrastructure: typeorm({ dataSource }) }).createCrud(Tag);
      const untraced = createSvc({ infrastructure: typeorm({ dataSource }), tracing: false }).createCrud(Tag);
      expect((await untraced.findMany({})).items).toHaveLength(1);
      expect(svcSpans()).toHaveLength(0);
      expect((await traced.findMany({})).items).toHaveLength(1);
      expect(svcSpans()).toHaveLength(1);
      expect(() => createSvc({ tracing: 'yes' as never })).toThrow(/tracing: must be true or false/);
    } finally {
      await dataSource.destroy();
    }
  });
});
