/**
 * A column TypeORM leaves out of its reads (`select: false`, the usual way to keep a password hash or a token out of
 * results) is served by no surface unless `select.fields` lists it by name: not in REST bodies or included rows,
 * GraphQL types or MCP results and schemas, not selectable, and not usable as a filter or sort (no oracle). It stays writable. An entity
 * whose `select.fields` names it serves it.
 */
import type { RealtimeEvent } from '@svc/core';
import type { RealtimeTransport } from '@svc/core/spi';
import request from 'supertest';
import { Column, Entity, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { svcController } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { postGraphql } from './support/graphql-http';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { connectMcp, type McpTestClient } from './support/mcp-clients';

/** Served by no entity: an include of it serves what TypeORM would load of it. */
@Entity('hidden_owner')
class Owner {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) name!: string;
  @Column({ type: 'varchar', length: 80, select: false, default: '' }) secret!: string;
}

@Entity('hidden_device')
class Device {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) label!: string;
  @Column({ type: 'varchar', length: 80, select: false, default: '' }) token!: string;
}

@Entity('hidden_account')
class Account {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) name!: string;
  @Column({ type: 'varchar', length: 80, select: false, default: '' }) passwordHash!: string;
  @Column({ type: 'int', nullable: true }) ownerId!: number | null;
  @ManyToOne(() => Owner, { nullable: true }) owner!: Owner | null;
  @Column({ type: 'int', nullable: true }) deviceId!: number | null;
  @ManyToOne(() => Device, { nullable: true }) device!: Device | null;
}

describe.each(TEST_DATABASES)('A select: false column on $name', (db) => {
  let app: McpApp;
  let http: ReturnType<McpApp['app']['getHttpServer']>;
  let mcp: McpTestClient;
  const events: RealtimeEvent[] = [];
  const recorder: RealtimeTransport = { name: 'recorder', publish: async (event) => void events.push(event) };

  beforeAll(async () => {
    app = await startMcpApp({
      db,
      suite: 'e2e_hidden_columns',
      entities: [Account, Device, Owner],
      controllers: [
        svcController('accounts', Account, {
          filter: { fields: { exclude: [] } },
          sort: { fields: { exclude: [] } },
          include: { fields: ['owner', 'device'] },
          realtime: {},
        }),
        svcController('devices', Device, { select: { fields: ['id', 'label', 'token'] } }),
      ],
      svc: { graphql: true, realtimeTransports: [recorder] },
    });
    http = app.app.getHttpServer();
    mcp = await connectMcp('v2 client, 2026-07-28', { url: app.url });
  });
  afterAll(async () => {
    await mcp?.close();
    await app?.close();
  });

  it('takes it in a create, stores it, and answers without it', async () => {
    const owner = await app.dataSource.getRepository(Owner).save({ name: 'olga', secret: 's1' });
    const created = await request(http).post('/accounts').send({ name: 'ann', passwordHash: 'h1', ownerId: owner.id });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: created.body.id, name: 'ann', ownerId: owner.id, deviceId: null });
    const stored = await app.dataSource
      .getRepository(Account)
      .findOne({ where: { id: created.body.id }, select: { id: true, passwordHash: true } });
    expect(stored?.passwordHash).toBe('h1');
  });

  it('leaves it out of REST reads, and refuses it as a select, a filter or a sort', async () => {
    const list = await request(http).get('/accounts');
    expect(list.status).toBe(200);
    for (const item of list.body.items) expect(Object.keys(item)).toEqual(['id', 'name', 'ownerId', 'deviceId']);
    const one = await request(http).get(`/accounts/${list.body.items[0].id}`);
    expect(Object.keys(one.body)).toEqual(['id', 'name', 'ownerId', 'deviceId']);
    for (const [query, param] of [
      ['select=passwordHash', 'select'],
      ['filter[passwordHash][eq]=h1', 'filter[passwordHash]'],
      ['sort=passwordHash', 'sort'],
    ] as const) {
      const refused = await request(http).get(`/accounts?${query}`);
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0].param).toBe(param);
    }
  });

  it('leaves it out of an included row of an entity no controller serves, even when select[] names it', async () => {
    const included = await request(http).get('/accounts?include=owner');
    expect(included.status).toBe(200);
    expect(included.body.items[0].owner).toEqual({ id: expect.any(Number), name: 'olga' });
    const named = await request(http).get('/accounts?include=owner&select[owner]=id,secret');
    expect(JSON.stringify(named.body)).not.toContain('s1');
  });

  it('is in no realtime event, neither its value nor its name among the changed fields', async () => {
    const account = await request(http).post('/accounts').send({ name: 'dee', passwordHash: 'h3' });
    events.length = 0;
    await request(http).patch(`/accounts/${account.body.id}`).send({ name: 'dee2', passwordHash: 'h4' }).expect(200);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const patched = events.find((event) => event.event === 'patched');
    expect(patched?.changed).toEqual(['name']);
    expect(JSON.stringify(events)).not.toMatch(/passwordHash|h3|h4/);
  });

  it('is no field of the GraphQL type', async () => {
    const answer = await postGraphql(http, { query: '{ accounts { items { id passwordHash } } }' });
    expect(answer.status).toBe(400);
    expect(answer.errors?.[0]?.message).toContain('passwordHash');
  });

  it('is in no MCP result or output schema, and stays writable through MCP', async () => {
    const tools = await mcp.listTools();
    const findMany = tools.find((tool) => tool.name === 'account_find_many')!;
    expect(JSON.stringify(findMany.outputSchema)).not.toContain('passwordHash');
    const createOne = tools.find((tool) => tool.name === 'account_create_one')!;
    expect(JSON.stringify(createOne.inputSchema)).toContain('passwordHash');
    const created = await mcp.callTool('account_create_one', { data: { name: 'bob', passwordHash: 'h2' } });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).not.toHaveProperty('passwordHash');
    const page = await mcp.callTool('account_find_many', {});
    expect(JSON.stringify(page.structuredContent)).not.toContain('h1');
    expect(JSON.stringify(page.content)).not.toContain('h2');
  });

  it('is served where select.fields lists it by name, in its own rows and where another entity includes them', async () => {
    const created = await request(http).post('/devices').send({ label: 'phone', token: 't1' });
    expect(created.body).toEqual({ id: created.body.id, label: 'phone', token: 't1' });
    const list = await request(http).get('/devices?select=token');
    expect(list.body.items).toEqual([{ token: 't1' }]);
    const account = await request(http).post('/accounts').send({ name: 'cy', deviceId: created.body.id });
    const included = await request(http).get(`/accounts/${account.body.id}?include=device`);
    expect(included.body.device).toEqual({ id: created.body.id, label: 'phone', token: 't1' });
    const answer = await postGraphql(http, {
      query: `{ account(id: ${account.body.id}) { device { label token } } }`,
    });
    expect(answer.errors).toBeUndefined();
    expect(answer.data).toEqual({ account: { device: { label: 'phone', token: 't1' } } });
  });
});
