/**
 * Guards on an Svc controller (`@UseGuards` on the class) and on one of its operations (`meta.decorators`) hold on
 * GraphQL and on the agent tools as on REST: the same guards run, with the HTTP request that carried the call and
 * the operation's route handler as the execution context's handler (so `Reflector` metadata reads the same), and a
 * refusal answers as a refusing policy does. Checked over real HTTP, with the MCP SDK's own client.
 */
import { Injectable, SetMetadata, UseGuards, type CanActivate, type ExecutionContext, type Type } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import request from 'supertest';
import { BOOKSTORE_ENTITIES, Tag } from '../fixtures/bookstore-entities';
import { svcController } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { dataOf, postGraphql } from './support/graphql-http';
import { startMcpApp, type McpApp, type TestCaller } from './support/mcp-app';
import { connectMcp } from './support/mcp-clients';

const callerOf = (context: ExecutionContext) => context.switchToHttp().getRequest<{ user?: TestCaller }>().user;

/** On the controller class: only a signed-in caller (the global TestCallerGuard sets `request.user`). */
@Injectable()
class SignedIn implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return callerOf(context) !== undefined;
  }
}

/** On an operation: the roles its route handler names with `@SetMetadata('roles', ...)`, read through Reflector. */
@Injectable()
class HasRole implements CanActivate {
  constructor(private readonly reflector: Reflector) {}
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const roles = this.reflector.get<string[] | undefined>('roles', context.getHandler()) ?? [];
    return roles.includes(callerOf(context)?.role ?? '');
  }
}

const Tags = svcController('tags', Tag, {
  operations: {
    findMany: true,
    findOne: true,
    createOne: { meta: { decorators: [UseGuards(HasRole), SetMetadata('roles', ['editor'])] } },
    deleteOne: true,
  },
});
UseGuards(SignedIn)(Tags);

/** A guard on findOne only: `GET /guarded-tags/events`, a findOne where no events are served, holds it too. */
const GuardedTags = svcController('guarded-tags', Tag, {
  operations: {
    findMany: true,
    findOne: { meta: { decorators: [UseGuards(HasRole), SetMetadata('roles', ['editor'])] } },
  },
});

const EDITOR = { 'x-user': 'ed:t1:editor' };
const VIEWER = { 'x-user': 'vi:t1:viewer' };

describe.each(TEST_DATABASES)('Svc controller guards on every surface, on $name', (db) => {
  let t: McpApp;
  let origin: string;
  const count = () => t.dataSource.getRepository(Tag).count();
  const gql = <T = Record<string, unknown>>(query: string, headers: Record<string, string> = {}) =>
    postGraphql<T>(t.app.getHttpServer(), { query, headers });

  beforeAll(async () => {
    t = await startMcpApp({
      db,
      suite: 'e2e_surface_guards',
      entities: BOOKSTORE_ENTITIES,
      controllers: [Tags as Type, GuardedTags],
      svc: { graphql: true },
    });
    origin = new URL(t.url).origin;
    await t.dataSource.getRepository(Tag).save([{ name: 'red' }]);
  });

  afterAll(async () => {
    await t?.close();
  });

  it('holds them on REST (the baseline)', async () => {
    await request(origin).get('/tags').expect(403);
    await request(origin).get('/tags').set(VIEWER).expect(200);
    await request(origin).post('/tags').set(VIEWER).send({ name: 'no' }).expect(403);
  });

  it('holds a findOne guard on GET /<path>/events where no events are served (it reads the row `events`)', async () => {
    await request(origin).get('/guarded-tags').set(VIEWER).expect(200);
    await request(origin).get('/guarded-tags/1').set(VIEWER).expect(403);
    const refused = await request(origin).get('/guarded-tags/events').set(VIEWER).expect(403);
    expect(refused.body.code).toBe('SVC_FORBIDDEN');
    // Let through, it reads the row `events`, which is no integer id.
    await request(origin).get('/guarded-tags/events').set(EDITOR).expect(400);
  });

  it('holds them on GraphQL: the class guard on reads, the operation guard on its mutation', async () => {
    const anonymous = await gql('{ tags { items { name } } }');
    expect(anonymous.errors?.[0]?.extensions?.code).toBe('SVC_FORBIDDEN');
    expect(dataOf(await gql<{ tags: { items: unknown[] } }>('{ tags { items { name } } }', VIEWER)).tags.items).toEqual(
      [{ name: 'red' }],
    );
    const before = await count();
    const refused = await gql('mutation { createTag(input: { name: "viewer" }) { id } }', VIEWER);
    expect(refused.errors?.[0]?.extensions).toMatchObject({ code: 'SVC_FORBIDDEN', problem: { status: 403 } });
    expect(await count()).toBe(before);
    const created = await gql<{ createTag: { name: string } }>(
      'mutation { createTag(input: { name: "editor" }) { name } }',
      EDITOR,
    );
    expect(dataOf(created).createTag).toEqual({ name: 'editor' });
    expect(await count()).toBe(before + 1);
  });

  it('holds them on the agent tools, called with the MCP SDK’s client', async () => {
    const viewer = await connectMcp('v2 client, 2026-07-28', { url: t.url, headers: VIEWER });
    const editor = await connectMcp('v2 client, 2026-07-28', { url: t.url, headers: EDITOR });
    const anonymous = await connectMcp('v2 client, 2026-07-28', { url: t.url });
    try {
      const before = await count();
      const refused = await viewer.callTool('tag_create_one', { data: { name: 'viewer' } });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ code: 'SVC_FORBIDDEN', status: 403 });
      expect(await count()).toBe(before);
      const created = await editor.callTool('tag_create_one', { data: { name: 'tool' } });
      expect(created.isError).toBeFalsy();
      expect(await count()).toBe(before + 1);
      // tools/list and svc_describe list only what the guards let each caller call.
      const listed = async (client: typeof viewer) =>
        (await client.listTools()).map((tool) => tool.name).filter((name) => name.startsWith('tag_'));
      expect(await listed(anonymous)).toEqual([]);
      expect(await listed(viewer)).not.toContain('tag_create_one');
      expect(await listed(editor)).toContain('tag_create_one');
      const toolsOf = async (client: typeof viewer) => {
        const described = await client.callTool('svc_describe', {});
        const entities = (described.structuredContent as { entities: { name: string; tools: object }[] }).entities;
        return entities.find((entity) => entity.name === 'Tag')?.tools;
      };
      expect(await toolsOf(anonymous)).toBeUndefined();
      expect(Object.keys((await toolsOf(viewer)) ?? {}).sort()).toEqual(['deleteOne', 'findMany', 'findOne']);
      expect(Object.keys((await toolsOf(editor)) ?? {}).sort()).toEqual([
        'createOne',
        'deleteOne',
        'findMany',
        'findOne',
      ]);
      const read = await anonymous.callTool('tag_find_many', {});
      expect(read.structuredContent).toMatchObject({ code: 'SVC_FORBIDDEN' });
      expect((await viewer.callTool('tag_find_many', {})).isError).toBeFalsy();
    } finally {
      await Promise.all([viewer.close(), editor.close(), anonymous.close()]);
    }
  });
});
