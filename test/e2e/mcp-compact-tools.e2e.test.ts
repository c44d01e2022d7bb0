/**
 * The compact tool layout (`mcp: { tools: 'compact' }`), with the MCP SDK's own clients on every test database: a
 * fixed set of tools that take the entity as an argument, listed per caller; each answering what the entity layout's
 * tool answers for the same arguments; an argument wrong for the entity named, or an entity the tool does not serve,
 * refused naming it; tenants kept apart; read-only compact servers. And what `tools/list` weighs in each layout, on a
 * generated 20-entity app and on the bookstore.
 */
import type { EntityConfig, PolicyFunction } from '@svc/core';
import { Column, DeleteDateColumn, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { BOOKSTORE_ENTITIES } from '../fixtures/bookstore-entities';
import { svcController, TEST_PLATFORM } from '../support/create-test-app';
import { TEST_DATABASES, type TestDatabase } from '../support/test-databases';
import { report } from '../support/test-report';
import { startMcpApp, type McpApp } from './support/mcp-app';
import {
  connectMcp,
  MCP_CLIENT_KINDS,
  type McpTestClient,
  type ToolCallResult,
  type ToolInfo,
} from './support/mcp-clients';
import { callerOf } from './support/mcp-fixtures';
import { callToolRaw, MCP_REVISIONS, type McpRevision, type RawToolAnswer } from './support/mcp-raw-calls';

@Entity('mcc_shelf')
class Shelf {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100 }) label!: string;
  @Column({ type: 'int', default: 0 }) capacity!: number;
}

@Entity('mcc_item')
class Item {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @Column({ type: 'int', default: 0 }) weight!: number;
  @Column({ type: 'int', nullable: true }) shelfId!: number | null;
  @ManyToOne(() => Shelf, { nullable: true }) @JoinColumn({ name: 'shelfId' }) shelf!: Shelf | null;
}

/** Soft-deleted: the only entity with restore and purge. */
@Entity('mcc_memo')
class Memo {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 200 }) text!: string;
  @DeleteDateColumn({ nullable: true }) deletedAt!: Date | null;
}

const GENERATED_NAMES = [
  'Customer',
  'Supplier',
  'Product',
  'Category',
  'Warehouse',
  'Shipment',
  'Invoice',
  'Payment',
  'Refund',
  'Coupon',
  'Employee',
  'Department',
  'Project',
  'Milestone',
  'Ticket',
  'Comment',
  'Attachment',
  'Contract',
  'Region',
  'Currency',
];

/**
 * Twenty entity classes, each with a handful of columns and a to-one relation to the next one, decorated here as
 * `@Entity`, `@Column` and `@ManyToOne` would decorate them.
 */
const GENERATED: Function[] = GENERATED_NAMES.map((name) => ({ [name]: class {} })[name]!);
GENERATED.forEach((target, index) => {
  const next = GENERATED[(index + 1) % GENERATED.length]!;
  const prototype = target.prototype as object;
  Entity(`mcg_${GENERATED_NAMES[index]!.toLowerCase()}`)(target);
  PrimaryGeneratedColumn()(prototype, 'id');
  Column({ type: 'varchar', length: 100 })(prototype, 'name');
  Column({ type: 'varchar', length: 500, nullable: true })(prototype, 'description');
  Column({ type: 'int', default: 0 })(prototype, 'quantity');
  Column({ type: 'float', nullable: true })(prototype, 'amount');
  Column({ type: 'boolean', default: false })(prototype, 'active');
  ManyToOne(() => next, { nullable: true })(prototype, `${next.name.charAt(0).toLowerCase()}${next.name.slice(1)}`);
});

const ENTITIES = [Shelf, Item, Memo];
const READS = new Set(['findMany', 'findOne', 'aggregate']);

/** A caller with a tenant reads, one whose role is among `writers` writes; each sees its tenant's rows only. */
function tenantConfig(writers: readonly string[], config: EntityConfig = {}): EntityConfig {
  const policy: PolicyFunction = ({ operation, context }) => {
    const caller = callerOf(context);
    if (!caller?.tenant) return false;
    return READS.has(operation) || writers.includes(caller.role);
  };
  return {
    ...config,
    policy,
    filter: { apply: ({ context }) => ({ tenant: { eq: callerOf(context)?.tenant ?? '' } }) },
  };
}

function controllers() {
  return [
    svcController(
      'shelves',
      Shelf,
      tenantConfig(['editor', 'admin'], { aggregate: {}, batch: { create: true, delete: true } }),
    ),
    // Items: no replace, change or delete, and only admins write.
    svcController(
      'items',
      Item,
      tenantConfig(['admin'], {
        operations: { findMany: true, findOne: true, createOne: true },
        include: { fields: ['shelf'] },
      }),
    ),
    svcController('memos', Memo, tenantConfig(['editor', 'admin'])),
  ];
}

const EDITOR_A = { 'x-user': 'ann:a:editor' };
const READER_A = { 'x-user': 'rex:a:reader' };
const ADMIN_A = { 'x-user': 'ada:a:admin' };
const EDITOR_B = { 'x-user': 'bob:b:editor' };

const READ_TOOLS = ['aggregate', 'find_many', 'find_one', 'svc_describe'];
const ALL_TOOLS = [
  ...READ_TOOLS,
  'create_many',
  'create_one',
  'delete_many',
  'delete_one',
  'patch_one',
  'purge_one',
  'restore_one',
  'update_one',
].sort();

type Problem = {
  code: string;
  status: number;
  detail: string;
  errors?: { param?: string; field?: string; code: string; detail: string }[];
};

function ok(result: ToolCallResult): Record<string, unknown> {
  if (result.isError) throw new Error(`the call failed: ${JSON.stringify(result.structuredContent)}`);
  return result.structuredContent!;
}

function problem(result: ToolCallResult): Problem {
  expect(result.isError).toBe(true);
  return result.structuredContent as unknown as Problem;
}

function named(body: Problem): string[] {
  return (body.errors ?? []).map((error) => error.param ?? `data.${error.field}`);
}

/** `value` without its `id` keys, at any depth: the two layouts' apps number the rows they write apart. */
function withoutIds(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutIds);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'id')
      .map(([key, child]) => [key, withoutIds(child)]),
  );
}

function entityEnum(tool: ToolInfo): unknown {
  return (tool.inputSchema['properties'] as Record<string, Record<string, unknown>>)['entity']!['enum'];
}

async function seed(app: McpApp): Promise<void> {
  const shelves = await app.dataSource.getRepository(Shelf).save([
    { tenant: 'a', label: 'a-oak', capacity: 10 },
    { tenant: 'a', label: 'a-pine', capacity: 20 },
    { tenant: 'b', label: 'b-steel', capacity: 5 },
  ]);
  await app.dataSource.getRepository(Item).save([
    { tenant: 'a', name: 'apple', weight: 3, shelfId: shelves[0]!.id },
    { tenant: 'b', name: 'bolt', weight: 7, shelfId: shelves[2]!.id },
  ]);
  await app.dataSource.getRepository(Memo).save([
    { tenant: 'a', text: 'a note' },
    { tenant: 'b', text: 'b note' },
  ]);
}

describe.each(TEST_DATABASES)('MCP compact tools on $name', (db) => {
  let entityApp: McpApp;
  let compactApp: McpApp;
  let readOnlyApp: McpApp;

  beforeAll(async () => {
    const start = (suite: string, mcp: Parameters<typeof startMcpApp>[0]['mcp']) =>
      startMcpApp({ db, suite, entities: ENTITIES, controllers: controllers(), mcp });
    entityApp = await start('e2e_mcp_compact_entity', true);
    compactApp = await start('e2e_mcp_compact', { tools: 'compact' });
    readOnlyApp = await start('e2e_mcp_compact_ro', { tools: 'compact', readOnly: true });
    for (const app of [entityApp, compactApp, readOnlyApp]) await seed(app);
  });
  afterAll(async () => {
    for (const app of [entityApp, compactApp, readOnlyApp]) await app?.close();
  });

  describe.each(MCP_CLIENT_KINDS)('with the %s', (kind) => {
    const compact: Record<string, McpTestClient> = {};
    let entity: McpTestClient;
    let readOnly: McpTestClient;

    beforeAll(async () => {
      for (const [name, headers] of Object.entries({ EDITOR_A, READER_A, ADMIN_A, EDITOR_B }))
        compact[name] = await connectMcp(kind, { url: compactApp.url, headers });
      entity = await connectMcp(kind, { url: entityApp.url, headers: EDITOR_A });
      readOnly = await connectMcp(kind, { url: readOnlyApp.url, headers: EDITOR_A });
    });
    afterAll(async () => {
      for (const client of [...Object.values(compact), entity, readOnly]) await client?.close();
    });

    describe('tools/list', () => {
      let tools: ToolInfo[];
      const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;
      beforeAll(async () => {
        tools = await compact['ADMIN_A']!.listTools();
      });

      it('lists one tool per operation some entity serves, and svc_describe', () => {
        expect(tools.map((candidate) => candidate.name).sort()).toEqual(ALL_TOOLS);
        expect(tools[0]!.name).toBe('find_many');
      });

      it('names in each tool the entities serving its operation', () => {
        expect(entityEnum(tool('find_many'))).toEqual(['Shelf', 'Item', 'Memo']);
        expect(entityEnum(tool('create_one'))).toEqual(['Shelf', 'Item', 'Memo']);
        expect(entityEnum(tool('patch_one'))).toEqual(['Shelf', 'Memo']);
        expect(entityEnum(tool('restore_one'))).toEqual(['Memo']);
        expect(entityEnum(tool('purge_one'))).toEqual(['Memo']);
        expect(entityEnum(tool('aggregate'))).toEqual(['Shelf']);
        expect(entityEnum(tool('create_many'))).toEqual(['Shelf']);
        expect(tool('patch_one').description).toContain('(entity: Shelf or Memo)');
        expect(tool('patch_one').description).toContain('svc_describe');
      });

      it('hints as every entity of the operation does', () => {
        expect(tool('find_many').annotations).toMatchObject({ readOnlyHint: true });
        expect(tool('aggregate').annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
        expect(tool('create_one').annotations).toMatchObject({
          readOnlyHint: false,
          destructiveHint: false,
          idempotentHint: false,
        });
        expect(tool('delete_one').annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
        expect(tool('patch_one').annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true });
      });

      it("holds each entity's exact arguments in a branch on entity, its filter under its own name", () => {
        const schema = tool('find_many').inputSchema;
        expect(schema).toMatchObject({ type: 'object', required: ['entity'], additionalProperties: false });
        const defs = schema['$defs'] as Record<string, { properties: Record<string, unknown> }>;
        expect(Object.keys(defs)).toEqual(expect.arrayContaining(['ShelfFilter', 'ItemFilter', 'MemoFilter']));
        // A condition fields share (every tenant column's) is given once and referenced.
        expect(defs['ShelfFilter']!.properties['tenant']).toEqual({ $ref: '#/$defs/stringCondition' });
        expect(defs['MemoFilter']!.properties['tenant']).toEqual({ $ref: '#/$defs/stringCondition' });
        expect(defs['stringCondition']).toMatchObject({ type: 'object', properties: { eq: { type: 'string' } } });
        expect(JSON.stringify(schema)).not.toContain('#/$defs/filter"');
        // Every argument some entity takes is at the top level; withDeleted only Memo's branch takes.
        const properties = schema['properties'] as Record<string, unknown>;
        for (const name of ['entity', 'filter', 'sort', 'select', 'include', 'limit', 'offset', 'withDeleted'])
          expect(properties).toHaveProperty(name);
        const branches = schema['allOf'] as { if: unknown; then: Record<string, Record<string, unknown>> }[];
        expect(branches.map((branch) => branch.if)).toEqual(
          ['Shelf', 'Item', 'Memo'].map((name) => ({ properties: { entity: { const: name } }, required: ['entity'] })),
        );
        expect(branches[0]!.then['properties']!['filter']).toEqual({ $ref: '#/$defs/ShelfFilter' });
        expect(branches[0]!.then['properties']).not.toHaveProperty('withDeleted');
        expect(branches[2]!.then['properties']).toHaveProperty('withDeleted');
        expect(defs['ItemFilter']!.properties['or']).toMatchObject({ items: { $ref: '#/$defs/ItemFilter' } });
        expect(tool('find_one').inputSchema['required']).toEqual(['entity', 'id']);
      });

      it('lists per caller: a tool when the caller may call it on some entity, with those entities', async () => {
        const reader = await compact['READER_A']!.listTools();
        expect(reader.map((candidate) => candidate.name).sort()).toEqual(READ_TOOLS);
        const editor = await compact['EDITOR_A']!.listTools();
        expect(editor.map((candidate) => candidate.name).sort()).toEqual(ALL_TOOLS);
        // Only admins write Items: an editor's create_one names Shelf and Memo, and holds no branch for Item.
        const create = editor.find((candidate) => candidate.name === 'create_one')!;
        expect(entityEnum(create)).toEqual(['Shelf', 'Memo']);
        expect(JSON.stringify(create.inputSchema)).not.toContain('Item');
        expect(entityEnum(editor.find((candidate) => candidate.name === 'find_many')!)).toEqual([
          'Shelf',
          'Item',
          'Memo',
        ]);
      });
    });

    describe('calls', () => {
      /** The entity layout's tool and the compact one, called alike: the same answer. */
      const same = async (
        operation: string,
        name: string,
        args: Record<string, unknown> = {},
        compactArgs: Record<string, unknown> = args,
      ) => {
        const snake = name.toLowerCase();
        const byEntity = await entity.callTool(`${snake}_${operation}`, args);
        const byCompact = await compact['EDITOR_A']!.callTool(operation, { entity: name, ...compactArgs });
        expect(byCompact.isError).toBe(byEntity.isError);
        expect(withoutIds(byCompact.structuredContent)).toEqual(withoutIds(byEntity.structuredContent));
        return [byEntity.structuredContent!, byCompact.structuredContent!] as const;
      };

      it('answers each read as the entity tool does', async () => {
        await same('find_many', 'Shelf', { filter: { capacity: { gte: 10 } }, sort: ['-capacity'], limit: 1 });
        await same('find_many', 'Item', { include: ['shelf'], sort: ['id'] });
        await same('find_many', 'Memo', { sort: ['id'], withDeleted: true });
        await same('find_one', 'Shelf', { id: 1, select: ['label'] });
        await same('find_one', 'Item', { id: 1, include: ['shelf'] });
        await same('aggregate', 'Shelf', { sum: ['capacity'] });
        // Refusals too: a row of another tenant, a wrong type, an argument the entity does not take.
        await same('find_one', 'Shelf', { id: 3 });
        await same('find_one', 'Memo', { id: 'one' });
        await same('find_many', 'Item', { withDeleted: true });
      });

      it('answers each write as the entity tool does, and refuses what the policy refuses alike', async () => {
        const data = { tenant: 'a', label: `same ${kind}`, capacity: 4 };
        const [created, createdHere] = await same('create_one', 'Shelf', { data });
        const ids = (args: Record<string, unknown>) =>
          [
            { id: created['id'], ...args },
            { id: createdHere['id'], ...args },
          ] as const;
        await same('patch_one', 'Shelf', ...ids({ data: { capacity: 8 } }));
        await same('update_one', 'Shelf', ...ids({ data: { tenant: 'a', label: `same ${kind}` } }));
        await same('delete_one', 'Shelf', ...ids({}));
        const batch = { data: [1, 2].map((n) => ({ tenant: 'a', label: `batch ${kind}`, capacity: n })) };
        await same('create_many', 'Shelf', batch);
        await same('delete_many', 'Shelf', { filter: { label: { eq: `batch ${kind}` } } });
        const [memo, memoHere] = await same('create_one', 'Memo', { data: { tenant: 'a', text: `memo ${kind}` } });
        const memoIds = [{ id: memo['id'] }, { id: memoHere['id'] }] as const;
        await same('delete_one', 'Memo', ...memoIds);
        await same('restore_one', 'Memo', ...memoIds);
        const [refused] = await same('create_one', 'Item', { data: { tenant: 'a', name: 'no' } });
        expect(refused).toMatchObject({ code: 'SVC_FORBIDDEN' });
      });

      it('refuses an argument of another entity, naming it', async () => {
        const call = (operation: string, args: Record<string, unknown>) =>
          compact['EDITOR_A']!.callTool(operation, args);
        const filter = problem(await call('find_many', { entity: 'Shelf', filter: { name: { eq: 'apple' } } }));
        expect(filter.code).toBe('SVC_QUERY_INVALID');
        expect(named(filter)).toEqual(['filter.name']);
        const data = problem(await call('patch_one', { entity: 'Shelf', id: 1, data: { text: 'x' } }));
        expect(data.code).toBe('SVC_VALIDATION_FAILED');
        expect(named(data)).toEqual(['data.text']);
        const argument = problem(await call('find_many', { entity: 'Shelf', withDeleted: true }));
        expect(argument.code).toBe('SVC_QUERY_UNSUPPORTED_PARAM');
        expect(named(argument)).toEqual(['withDeleted']);
        expect(named(problem(await call('find_one', { entity: 'Item' })))).toEqual(['id']);
      });

      it('refuses a missing or unknown entity, naming entity', async () => {
        const call = (operation: string, args: Record<string, unknown>) =>
          compact['EDITOR_A']!.callTool(operation, args);
        const missing = problem(await call('find_many', {}));
        expect(missing).toMatchObject({ code: 'SVC_QUERY_INVALID', status: 400 });
        expect(missing.errors).toEqual([expect.objectContaining({ param: 'entity', code: 'required' })]);
        const misspelt = problem(await call('find_many', { entity: 'shelf' }));
        expect(misspelt.code).toBe('SVC_QUERY_INVALID');
        expect(misspelt.errors).toEqual([expect.objectContaining({ param: 'entity', code: 'enum' })]);
        expect(misspelt.errors![0]!.detail).toContain("Did you mean 'Shelf'?");
        const unknown = problem(await call('find_many', { entity: 'Warehouse', limit: 'x' }));
        expect(named(unknown)).toEqual(['entity']);
        expect(unknown.errors![0]!.detail).not.toContain('Did you mean');
        expect(named(problem(await call('find_many', { entity: 3 })))).toEqual(['entity']);
        // An entity that does not serve the operation: Shelf has no restore.
        const restore = problem(await call('restore_one', { entity: 'Shelf', id: 1 }));
        expect(restore.errors).toEqual([
          expect.objectContaining({ param: 'entity', detail: expect.stringContaining('"Memo"') }),
        ]);
        await expect(call('shelf_find_many', {})).rejects.toThrow(/shelf_find_many/);
      });

      it("never shows tenant b tenant a's rows", async () => {
        const b = compact['EDITOR_B']!;
        const shelves = ok(await b.callTool('find_many', { entity: 'Shelf', limit: 50 }));
        expect((shelves['items'] as { tenant: string }[]).every((row) => row.tenant === 'b')).toBe(true);
        expect(shelves['total']).toBeGreaterThan(0);
        for (const name of ['Item', 'Memo']) {
          const rows = ok(await b.callTool('find_many', { entity: name, limit: 50 }));
          expect((rows['items'] as { tenant: string }[]).map((row) => row.tenant)).toEqual(['b']);
        }
        expect(problem(await b.callTool('find_one', { entity: 'Shelf', id: 1 })).code).toBe('SVC_NOT_FOUND');
        expect(problem(await b.callTool('find_one', { entity: 'Item', id: 1 })).code).toBe('SVC_NOT_FOUND');
        expect(problem(await b.callTool('patch_one', { entity: 'Shelf', id: 1, data: { capacity: 0 } })).code).toBe(
          'SVC_NOT_FOUND',
        );
        expect(problem(await b.callTool('delete_one', { entity: 'Memo', id: 1 })).code).toBe('SVC_NOT_FOUND');
        const swept = ok(await b.callTool('delete_many', { entity: 'Shelf', filter: { label: { eq: 'a-oak' } } }));
        expect(swept).toMatchObject({ total: 0 });
        const groups = ok(await b.callTool('aggregate', { entity: 'Shelf', sum: ['capacity'] }));
        expect(groups).toMatchObject({ items: [{ sum: { capacity: 5 } }] });
        expect(ok(await compact['READER_A']!.callTool('find_one', { entity: 'Shelf', id: 1 }))).toMatchObject({
          capacity: 10,
          tenant: 'a',
        });
      });

      it('describes the entities with the compact tool of each operation', async () => {
        const described = ok(await compact['READER_A']!.callTool('svc_describe', { entity: 'Shelf' }));
        expect(described['entities']).toEqual([
          expect.objectContaining({
            name: 'Shelf',
            tools: { findMany: 'find_many', findOne: 'find_one', aggregate: 'aggregate' },
          }),
        ]);
      });
    });

    describe('with readOnly', () => {
      it('lists the read tools only', async () => {
        expect((await readOnly.listTools()).map((tool) => tool.name).sort()).toEqual(READ_TOOLS);
      });

      it('refuses a write tool called by name, writing nothing', async () => {
        const rows = () => readOnlyApp.dataSource.getRepository(Shelf).count();
        const before = await rows();
        const created = await readOnly.callTool('create_one', { entity: 'Shelf', data: { tenant: 'a', label: 'no' } });
        const swept = await readOnly.callTool('delete_many', { entity: 'Shelf', filter: { capacity: { gte: 0 } } });
        for (const result of [created, swept])
          expect(problem(result)).toMatchObject({ status: 405, code: 'SVC_OPERATION_DISABLED' });
        expect(await rows()).toBe(before);
        expect(ok(await readOnly.callTool('find_many', { entity: 'Shelf' }))).toMatchObject({ total: 2 });
      });
    });
  });

  describe('raw JSON text over HTTP (what an SDK client may not send as written)', () => {
    const raw = (app: McpApp, name: string, args: string, revision: McpRevision) =>
      callToolRaw(app.url, { name, args, revision, headers: EDITOR_A });
    const problemOf = (answer: RawToolAnswer): Problem => {
      expect(answer).toMatchObject({ status: 200, result: { isError: true } });
      return answer.result!.structuredContent as unknown as Problem;
    };
    const shelves = () => compactApp.dataSource.getRepository(Shelf).count();

    /** A compact call with the key written as `NAME`, and the entity tool it runs. */
    const CALLS: readonly (readonly [operation: string, entity: string, args: string])[] = [
      ['find_many', 'Shelf', '{"NAME":{"limit":1}}'],
      ['find_many', 'Shelf', '{"filter":{"NAME":{"eq":1}}}'],
      ['find_many', 'Shelf', '{"filter":{"and":[{"label":{"NAME":"x"}}]}}'],
      ['create_one', 'Shelf', '{"data":{"tenant":"a","label":"x","NAME":{"capacity":1}}}'],
      ['create_many', 'Shelf', '{"data":[{"tenant":"a","label":"x","NAME":1}]}'],
      ['delete_many', 'Shelf', '{"filter":{"NAME":{"capacity":{"gte":0}}}}'],
      ['find_one', 'Item', '{"id":1,"NAME":["shelf"]}'],
    ];

    describe.each(MCP_REVISIONS)('on %s', (revision) => {
      it('refuses an own __proto__, constructor or prototype key at every level as the entity tool refuses any unknown name', async () => {
        const before = await shelves();
        for (const [operation, entity, args] of CALLS) {
          const withEntity = (name: string) => `{"entity":"${entity}",${args.slice(1).replace('NAME', name)}`;
          const unknown = problemOf(await raw(compactApp, operation, withEntity('zzz'), revision));
          const entityTool = `${entity.toLowerCase()}_${operation}`;
          expect(problemOf(await raw(entityApp, entityTool, args.replace('NAME', 'zzz'), revision))).toEqual(unknown);
          for (const name of ['__proto__', 'constructor', 'prototype']) {
            const sent = await raw(compactApp, operation, withEntity(name), revision);
            // Fastify's JSON parser refuses a body with a __proto__ key (400) before any route runs.
            if (name === '__proto__' && TEST_PLATFORM === 'fastify') {
              expect(sent.status).toBe(400);
              continue;
            }
            expect({ operation, args, refused: problemOf(sent) }).toEqual({
              operation,
              args,
              refused: JSON.parse(JSON.stringify(unknown).replaceAll('zzz', name)),
            });
          }
        }
        if (TEST_PLATFORM !== 'fastify') {
          const top = problemOf(await raw(compactApp, 'find_many', '{"entity":"Shelf","__proto__":{}}', revision));
          expect(top).toMatchObject({ code: 'SVC_QUERY_UNSUPPORTED_PARAM', status: 400 });
          expect(named(top)).toEqual(['__proto__']);
        }
        expect(await shelves()).toBe(before);
      });
    });

    // As in the entity layout's suite: one database, and rounds enough for V8 to optimize the walks.
    (db === TEST_DATABASES[0] ? it : it.skip)(
      'refuses arguments nested thousands of levels deep with a 400 naming the problem, round after round',
      async () => {
        const nested = (levels: number, open: string, close: string, inner: string) =>
          `${open.repeat(levels)}${inner}${close.repeat(levels)}`;
        const calls = [
          ['find_many', `{"entity":"Shelf","filter":${nested(3000, '{"not":', '}', '{"capacity":{"eq":1}}')}}`],
          ['create_many', `{"entity":"Shelf","data":[{"tenant":"a","label":${nested(3000, '[', ']', '"x"')}}]}`],
          ['find_many', `{"entity":${nested(3000, '{"a":', '}', '1')}}`],
        ] as const;
        const before = await shelves();
        for (let round = 0; round < 200; round++) {
          const revision = MCP_REVISIONS[round % MCP_REVISIONS.length]!;
          for (const [operation, args] of calls) {
            const refused = problemOf(await raw(compactApp, operation, args, revision));
            expect(refused).toMatchObject({ status: 400 });
            expect(refused.errors).toEqual([expect.objectContaining({ code: 'too_deep' })]);
            expect(refused.detail).toMatch(/levels deep/);
          }
        }
        expect(await shelves()).toBe(before);
      },
      120_000,
    );
  });

  describe('the size of tools/list', () => {
    it('is smaller compact than per entity on a 20-entity app; on the bookstore, as measured', async () => {
      const apps = [
        { app: '20 entities', key: 'gen', entities: GENERATED, paths: GENERATED_NAMES },
        { app: 'bookstore', key: 'shop', entities: BOOKSTORE_ENTITIES, paths: BOOKSTORE_ENTITIES.map((e) => e.name) },
      ];
      const sizes: Record<string, Record<'entity' | 'compact', { bytes: number; tools: number }>> = {};
      for (const { app, key, entities, paths } of apps) {
        const measure = async (layout: 'entity' | 'compact') => {
          const controllers = entities.map((target, index) => svcController(paths[index]!.toLowerCase(), target));
          const tools = await listedTools(db, `e2e_mcp_size_${key}_${layout}`, entities, controllers, layout);
          return { bytes: Buffer.byteLength(JSON.stringify({ tools })), tools: tools.length };
        };
        sizes[app] = { entity: await measure('entity'), compact: await measure('compact') };
      }
      report(
        `MCP tools/list on ${db.name}, bytes of its JSON: ` +
          Object.entries(sizes)
            .map(
              ([app, { entity, compact }]) =>
                `${app}: entity layout ${entity.bytes} (${entity.tools} tools), compact ${compact.bytes} (${compact.tools} tools)`,
            )
            .join('; '),
      );
      const generated = sizes['20 entities']!;
      expect(generated.compact.bytes).toBeLessThan(generated.entity.bytes);
      expect(generated.compact.tools).toBeLessThan(15);
    }, 180_000);
  });
});

/** The tools an app in `layout` lists to a caller who may call everything. */
async function listedTools(
  db: TestDatabase,
  suite: string,
  entities: readonly Function[],
  controllers: ReturnType<typeof svcController>[],
  layout: 'entity' | 'compact',
): Promise<ToolInfo[]> {
  const app = await startMcpApp({ db, suite, entities: [...entities], controllers, mcp: { tools: layout } });
  try {
    const client = await connectMcp('v2 client, 2026-07-28', { url: app.url });
    try {
      return await client.listTools();
    } finally {
      await client.close();
    }
  } finally {
    await app.close();
  }
}
