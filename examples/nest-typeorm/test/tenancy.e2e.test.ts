/**
 * The tenancy example, claim by claim: every rule docs/guide/multi-tenancy.md states, checked with two tenants' real
 * signed tokens (acme and globex) on REST, GraphQL, the agent tools (the MCP SDK's client) and the task event stream
 * (an EventSource), and the database read directly to prove that nothing crossed from one tenant to the other.
 */
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { TypeOrmModule } from '@nestjs/typeorm';
import { SvcModule } from '@svc/nestjs';
import { sse } from '@svc/sse';
import { typeorm } from '@svc/typeorm';
import { EventSource } from 'eventsource';
import { DataSource } from 'typeorm';
import { connectMcp, type McpTestClient } from '../../../test/e2e/support/mcp-clients';
import { eventually } from '../../../test/e2e/support/redis-instances';
import { docBlocks } from '../../../test/support/doc-blocks';
import { ProjectsController } from '../src/tenancy/controllers/projects.controller';
import { TasksController } from '../src/tenancy/controllers/tasks.controller';
import { Project, Task } from '../src/tenancy/entities';
import { tenancyDatabaseOptions } from '../src/tenancy/tenancy-database-options';
import { TenancyAppModule } from '../src/tenancy/tenancy-app.module';
import { tenantScoped } from '../src/tenancy/tenant-scoped';
import { TENANCY_DATABASES } from './tenancy-databases';
import { tokenFor } from './tokens';

jest.setTimeout(60_000);

const GUIDE = join(__dirname, '..', '..', '..', 'docs', 'guide', 'multi-tenancy.md');
const EXAMPLE = join(__dirname, '..');

/** A token of `role` for `tenant` (none: a token that names no tenant), as `pnpm token <role> <tenant>` prints. */
const tokenOf = (role: 'editor' | 'reader', tenant?: string, options: { secret?: string; expiresIn?: number } = {}) =>
  tokenFor(role, { sub: `${role}@${tenant ?? 'nowhere'}`, ...options, claims: tenant ? { tenant } : {} });

const ACME = tokenOf('editor', 'acme');
const ACME_READER = tokenOf('reader', 'acme');
const GLOBEX = tokenOf('editor', 'globex');
const GLOBEX_READER = tokenOf('reader', 'globex');
const TENANTLESS = tokenOf('editor');

/** Tokens naming acme that the guard must refuse before any tenant rule runs. */
const UNVERIFIED: readonly [string, string][] = [
  ['signed with another secret', tokenOf('editor', 'acme', { secret: 'not-the-apps-secret' })],
  ['expired', tokenOf('editor', 'acme', { expiresIn: -60 })],
];

interface Answer {
  readonly status: number;
  readonly body: Record<string, unknown> & { items?: Record<string, unknown>[] };
}

describe.each(TENANCY_DATABASES)('the tenancy example on $name', (database) => {
  let app: INestApplication;
  let base: string;
  /** Seeded ids by `<tenant>:<project name>` and `<tenant>:<task title>`. */
  const ids: Record<string, number> = {};
  const id = (name: string) => {
    const found = ids[name];
    if (found === undefined) throw new Error(`no seeded row '${name}'`);
    return found;
  };

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [TenancyAppModule.forRoot({ databaseUrl: await database.open() })],
    }).compile();
    app = moduleRef.createNestApplication({ logger: false });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer() as { address(): AddressInfo }).address().port}`;
    // The seeder filled both tenants on boot, as `pnpm tenancy` does on a first start.
    for (const project of await projects().find()) ids[`${project.tenantId}:${project.name}`] = project.id;
    for (const task of await tasks().find()) ids[`${task.tenantId}:${task.title}`] = task.id;
  });

  afterAll(async () => {
    await app?.close();
    await database.close();
  });

  const projects = () => app.get(DataSource).getRepository(Project);
  const tasks = () => app.get(DataSource).getRepository(Task);

  /** A REST call with `token` as the bearer (none: anonymous). */
  async function api(method: string, path: string, token?: string, body?: unknown): Promise<Answer> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as Answer['body']) : {} };
  }

  /** The list items of a 200 answer. */
  function itemsOf(answer: Answer): Record<string, unknown>[] {
    const items = answer.body.items;
    if (answer.status !== 200 || !items) throw new Error(`Expected a list, got ${JSON.stringify(answer)}`);
    return items;
  }

  /** The body of an answer that must have this status (a problem, for an error status). */
  function problemOf(answer: Answer, status: number): Answer['body'] {
    if (answer.status !== status) throw new Error(`Expected ${status}, got ${JSON.stringify(answer)}`);
    return answer.body;
  }

  /** A problem without what names the request, so a hidden row's answer can be compared with a missing row's. */
  function anonymised(answer: Answer, rowId: number): unknown {
    const { requestId: _r, instance: _i, ...rest } = answer.body;
    return JSON.parse(JSON.stringify(rest).replace(new RegExp(`\\b${rowId}\\b`, 'g'), '<id>'));
  }

  /** What the database holds of every row of both tables, to compare before and after a refused request. */
  async function everyRow(): Promise<unknown[]> {
    return [await projects().find({ order: { id: 'ASC' } }), await tasks().find({ order: { id: 'ASC' } })];
  }

  describe('the tenant comes from the verified token', () => {
    it('lists each tenant its own projects, with its own tenantId, and none of the other’s', async () => {
      const acmeList = await api('GET', '/projects', ACME);
      const acme = itemsOf(acmeList);
      expect(acme.map((project) => project['name'])).toEqual(['Rocket sled', 'Website']);
      expect(acmeList.body['total']).toBe(2);
      expect(new Set(acme.map((project) => project['tenantId']))).toEqual(new Set(['acme']));
      const globex = itemsOf(await api('GET', '/projects', GLOBEX_READER));
      expect(globex.map((project) => project['name'])).toEqual(['Doomsday device', 'Website']);
      expect(new Set(globex.map((project) => project['tenantId']))).toEqual(new Set(['globex']));
    });

    it('lets a client filter on tenantId only narrow its own rows: naming the other tenant finds nothing', async () => {
      const answer = await api('GET', '/projects?filter[tenantId][eq]=globex', ACME);
      expect(answer.body).toMatchObject({ items: [], total: 0 });
    });
  });

  describe('the scope holds on every read, update and delete', () => {
    it('answers GET, PATCH, PUT and DELETE of the other tenant’s rows 404, as for an id that does not exist', async () => {
      const before = await everyRow();
      const project = id('globex:Doomsday device');
      const task = id('globex:Hire a henchman');
      const calls: [string, string, number, unknown][] = [
        ['GET', 'projects', project, undefined],
        ['PATCH', 'projects', project, { name: 'Ours now' }],
        ['DELETE', 'projects', project, undefined],
        ['GET', 'tasks', task, undefined],
        ['PATCH', 'tasks', task, { done: true }],
        ['PUT', 'tasks', task, { title: 'Taken over', done: true, projectId: id('acme:Website') }],
        ['DELETE', 'tasks', task, undefined],
      ];
      for (const [method, collection, rowId, body] of calls) {
        const other = await api(method, `/${collection}/${rowId}`, ACME, body);
        expect([method, collection, problemOf(other, 404)['code']]).toEqual([method, collection, 'SVC_NOT_FOUND']);
        const missing = await api(method, `/${collection}/987654`, ACME, body);
        expect(anonymised(other, rowId)).toEqual(anonymised(missing, 987654));
      }
      expect(await everyRow()).toEqual(before);
    });

    it('still lets each tenant write its own rows', async () => {
      const created = await api('POST', '/tasks', ACME, { title: 'Scoped write', projectId: id('acme:Website') });
      expect(created.status).toBe(201);
      const path = `/tasks/${String(created.body['id'])}`;
      expect((await api('PATCH', path, ACME, { done: true })).body).toMatchObject({ done: true, tenantId: 'acme' });
      expect((await api('DELETE', path, ACME)).status).toBe(204);
      expect(await tasks().findOneBy({ id: created.body['id'] as number })).toBeNull();
    });

    it('lets a tenant’s reader read and refuses its writes with 403', async () => {
      expect(itemsOf(await api('GET', '/tasks', ACME_READER)).length).toBeGreaterThan(0);
      const before = await everyRow();
      const refused = await api('PATCH', `/tasks/${id('acme:Pick a font')}`, ACME_READER, { done: false });
      expect(problemOf(refused, 403)['code']).toBe('SVC_FORBIDDEN');
      expect(await everyRow()).toEqual(before);
    });
  });

  describe('the tenant column is pinned on writes', () => {
    it('stamps a new row with the caller’s tenant', async () => {
      const created = await api('POST', '/projects', ACME, { name: 'Pinned' });
      expect(created).toMatchObject({ status: 201, body: { name: 'Pinned', tenantId: 'acme' } });
      expect(await projects().findOneByOrFail({ id: created.body['id'] as number })).toMatchObject({
        tenantId: 'acme',
      });
    });

    it('refuses a body that names a tenant, the other one or its own, with 400 not_writable, writing nothing', async () => {
      const before = await everyRow();
      for (const tenantId of ['globex', 'acme']) {
        const refused = problemOf(await api('POST', '/projects', ACME, { name: 'Smuggled', tenantId }), 400);
        expect(refused).toMatchObject({
          code: 'SVC_VALIDATION_FAILED',
          errors: [expect.objectContaining({ field: 'tenantId', code: 'not_writable' })],
        });
      }
      const moved = await api('PATCH', `/tasks/${id('acme:Pick a font')}`, ACME, { tenantId: 'globex' });
      expect(problemOf(moved, 400)).toMatchObject({ errors: [expect.objectContaining({ field: 'tenantId' })] });
      expect(await everyRow()).toEqual(before);
    });

    it('cannot be made writable: tenantScoped refuses a list that names it', () => {
      expect(() => tenantScoped({ writable: ['name', 'tenantId'] })).toThrow(/'tenantId' must not be writable/);
    });

    it('keeps the tenant on a PUT, which resets every other writable field', async () => {
      const task = await api('POST', '/tasks', ACME, { title: 'Replaced', projectId: id('acme:Website') });
      const path = `/tasks/${String(task.body['id'])}`;
      const replace = { title: 'Replaced again', done: true, projectId: id('acme:Rocket sled') };
      expect((await api('PUT', path, ACME, replace)).body).toMatchObject({ ...replace, tenantId: 'acme' });
      expect(await tasks().findOneByOrFail({ id: task.body['id'] as number })).toMatchObject({ tenantId: 'acme' });
    });

    it('takes a project name the other tenant uses (names are unique per tenant), and refuses a repeat with 409', async () => {
      const taken = await api('POST', '/projects', ACME, { name: 'Doomsday device' });
      expect(taken).toMatchObject({ status: 201, body: { tenantId: 'acme' } });
      expect(problemOf(await api('POST', '/projects', ACME, { name: 'Doomsday device' }), 409)['code']).toBe(
        'SVC_CONFLICT',
      );
      expect(await projects().countBy({ name: 'Doomsday device' })).toBe(2);
    });
  });

  describe('a reference by id must name a row of the caller’s tenant', () => {
    /** The 422, with the id taken out so that the other tenant's row and a missing one can be compared. */
    const unresolved = (answer: Answer, rowId: number) => {
      expect(problemOf(answer, 422)['code']).toBe('SVC_UNRESOLVED_RELATION');
      return anonymised(answer, rowId);
    };

    it('refuses a task created under the other tenant’s project with 422, as for a missing project', async () => {
      const before = await everyRow();
      const other = id('globex:Doomsday device');
      const hidden = await api('POST', '/tasks', ACME, { title: 'Sneaked in', projectId: other });
      const missing = await api('POST', '/tasks', ACME, { title: 'Sneaked in', projectId: 987654 });
      expect(unresolved(hidden, other)).toEqual(unresolved(missing, 987654));
      expect(await everyRow()).toEqual(before);
    });

    it('refuses to move a task to the other tenant’s project with 422, and leaves it where it was', async () => {
      const before = await everyRow();
      const task = `/tasks/${id('acme:Order the rockets')}`;
      const other = id('globex:Website');
      unresolved(await api('PATCH', task, ACME, { projectId: other }), other);
      const replace = { title: 'Order the rockets', done: false, projectId: other };
      unresolved(await api('PUT', task, ACME, replace), other);
      expect(await everyRow()).toEqual(before);
    });

    it('moves a task between the caller’s own projects', async () => {
      const task = `/tasks/${id('acme:Order the rockets')}`;
      const moved = await api('PATCH', task, ACME, { projectId: id('acme:Website') });
      expect(moved.body).toMatchObject({ projectId: id('acme:Website') });
      await api('PATCH', task, ACME, { projectId: id('acme:Rocket sled') });
    });
  });

  describe('relations keep each entity’s own scope', () => {
    let crossed: number;

    // A task of acme's linked to globex's project by something other than the API (an import, a script, a bug
    // elsewhere): reads must still never show acme the project, nor globex the task.
    beforeAll(async () => {
      const row = await tasks().save({
        tenantId: 'acme',
        projectId: id('globex:Doomsday device'),
        title: 'Linked across',
        done: false,
      });
      crossed = row.id;
    });
    afterAll(() => tasks().delete({ id: crossed }));

    it('includes only the caller’s projects: a task linked across reads project: null', async () => {
      const list = itemsOf(await api('GET', '/tasks?include=project&limit=100', ACME));
      for (const task of list) {
        expect(task['tenantId']).toBe('acme');
        const project = task['project'] as Record<string, unknown> | null;
        if (project !== null) expect(project['tenantId']).toBe('acme');
      }
      expect(list.find((task) => task['id'] === crossed)).toMatchObject({ project: null });
      const one = await api('GET', `/tasks/${crossed}?include=project`, ACME);
      expect(one.body).toMatchObject({ id: crossed, project: null });
    });

    it('includes only the caller’s tasks: the other tenant’s project never lists them', async () => {
      const list = itemsOf(await api('GET', '/projects?include=tasks', GLOBEX));
      const doomsday = list.find((project) => project['name'] === 'Doomsday device')!;
      const titles = (doomsday['tasks'] as Record<string, unknown>[]).map((task) => task['title']).sort();
      expect(titles).toEqual(['Build the device', 'Hire a henchman']);
    });

    it('filters by project.name inside the caller’s projects only', async () => {
      const website = itemsOf(await api('GET', '/tasks?filter[project.name][eq]=Website&limit=100', ACME));
      const titles = website.map((task) => task['title']);
      expect(titles).toEqual(expect.arrayContaining(['Draft the home page', 'Pick a font']));
      expect(titles).not.toContain('Buy the domain');
      expect(new Set(website.map((task) => task['tenantId']))).toEqual(new Set(['acme']));
      const across = await api('GET', '/tasks?filter[project.name][eq]=Doomsday%20device', ACME);
      expect(across.body).toMatchObject({ items: [], total: 0 });
    });
  });

  describe('the result cache is partitioned by tenant', () => {
    it('never serves one tenant’s cached list to the other, both warm on the same URL', async () => {
      const url = '/projects?sort=name';
      const acmeFirst = itemsOf(await api('GET', url, ACME));
      const globexFirst = itemsOf(await api('GET', url, GLOBEX));
      // Written behind Svc's back, so the cache does not know: a warm entry still answers without it.
      await projects().save({ tenantId: 'acme', name: 'Written directly' });
      const acmeWarm = itemsOf(await api('GET', url, ACME));
      const globexWarm = itemsOf(await api('GET', url, GLOBEX));
      expect(acmeWarm).toEqual(acmeFirst);
      expect(globexWarm).toEqual(globexFirst);
      expect(new Set(acmeWarm.map((project) => project['tenantId']))).toEqual(new Set(['acme']));
      expect(new Set(globexWarm.map((project) => project['tenantId']))).toEqual(new Set(['globex']));
      // A write through the API drops the entity's entries, for every tenant.
      await api('POST', '/projects', GLOBEX, { name: 'Invalidates' });
      expect(itemsOf(await api('GET', url, ACME)).map((project) => project['name'])).toContain('Written directly');
      expect(itemsOf(await api('GET', url, GLOBEX)).map((project) => project['name'])).toContain('Invalidates');
    });
  });

  describe('events reach the subscribers of the row’s tenant only', () => {
    interface Received {
      readonly type: string;
      readonly id: number;
      readonly tenantId: unknown;
    }

    /** Creates a task over REST and returns its id. */
    async function createTask(token: string, title: string, projectId: number): Promise<number> {
      const created = await api('POST', '/tasks', token, { title, projectId });
      expect(created.status).toBe(201);
      return created.body['id'] as number;
    }

    /** An EventSource on /tasks/events with the token as `access_token`, as a browser opens it. */
    async function subscribe(token: string): Promise<{ events: Received[]; close(): void }> {
      const events: Received[] = [];
      const source = new EventSource(`${base}/tasks/events?access_token=${token}`);
      for (const type of ['created', 'updated', 'patched', 'deleted']) {
        source.addEventListener(type, (message) => {
          const data = JSON.parse(message.data) as { id: number; item: { tenantId: unknown } | null };
          events.push({ type, id: data.id, tenantId: data.item?.tenantId });
        });
      }
      await new Promise<void>((resolve, reject) => {
        source.onopen = () => resolve();
        source.onerror = (error) => reject(new Error(`the stream did not open: ${String(error.message)}`));
      });
      source.onerror = () => source.close();
      return { events, close: () => source.close() };
    }

    it('sends acme’s subscriber acme’s writes and none of globex’s, and the other way round', async () => {
      const acme = await subscribe(ACME_READER);
      const globex = await subscribe(GLOBEX_READER);
      try {
        const theirs = await createTask(GLOBEX, 'Theirs', id('globex:Website'));
        await api('PATCH', `/tasks/${theirs}`, GLOBEX, { done: true });
        const ours = await createTask(ACME, 'Ours', id('acme:Website'));
        await api('DELETE', `/tasks/${theirs}`, GLOBEX);
        await api('PATCH', `/tasks/${ours}`, ACME, { done: true });
        await api('DELETE', `/tasks/${ours}`, ACME);
        const last = await createTask(GLOBEX, 'Last', id('globex:Website'));
        // One event log feeds both streams in order: once the last event of each tenant has arrived, every earlier
        // event that was going to reach that subscriber has too.
        await eventually(() => acme.events.some((event) => event.type === 'deleted'), 'acme’s deleted event');
        await eventually(() => globex.events.some((event) => event.id === last), 'globex’s last event');
        expect(acme.events).toEqual([
          { type: 'created', id: ours, tenantId: 'acme' },
          { type: 'patched', id: ours, tenantId: 'acme' },
          { type: 'deleted', id: ours, tenantId: undefined },
        ]);
        expect(globex.events).toEqual([
          { type: 'created', id: theirs, tenantId: 'globex' },
          { type: 'patched', id: theirs, tenantId: 'globex' },
          { type: 'deleted', id: theirs, tenantId: undefined },
          { type: 'created', id: last, tenantId: 'globex' },
        ]);
      } finally {
        acme.close();
        globex.close();
      }
    });

    it('refuses a stream to a caller without a tenant or without a token, with 403, before it opens', async () => {
      for (const query of [`?access_token=${TENANTLESS}`, '']) {
        const response = await fetch(`${base}/tasks/events${query}`, { headers: { accept: 'text/event-stream' } });
        expect(response.status).toBe(403);
        expect(((await response.json()) as { code: string }).code).toBe('SVC_FORBIDDEN');
      }
    });
  });

  describe('GraphQL keeps the same rules', () => {
    async function graphql(token: string | undefined, query: string) {
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: {
          accept: 'application/graphql-response+json',
          'content-type': 'application/json',
          ...(token ? { authorization: `Bearer ${token}` } : {}),
        },
        body: JSON.stringify({ query }),
      });
      const body = (await response.json()) as {
        data?: Record<string, unknown> | null;
        errors?: { extensions?: { code?: string } }[];
      };
      return { status: response.status, ...body, codes: (body.errors ?? []).map((error) => error.extensions?.code) };
    }

    it('lists the caller’s rows only, through relations too', async () => {
      const answer = await graphql(
        ACME,
        '{ tasks(filter: { project: { name: { eq: "Website" } } }, limit: 100) { items { tenantId project { tenantId } } } }',
      );
      const items = (answer.data!['tasks'] as { items: { tenantId: string; project: { tenantId: string } }[] }).items;
      expect(items.length).toBeGreaterThan(0);
      for (const task of items) expect(task).toEqual({ tenantId: 'acme', project: { tenantId: 'acme' } });
      const other = await graphql(ACME, `{ project(id: "${id('globex:Website')}") { name } }`);
      expect(other.codes).toEqual(['SVC_NOT_FOUND']);
    });

    it('refuses mutations of the other tenant’s rows and references to them, writing nothing', async () => {
      const before = await everyRow();
      const patched = await graphql(
        ACME,
        `mutation { patchTask(id: "${id('globex:Buy the domain')}", input: { done: false }) { id } }`,
      );
      expect(patched.codes).toEqual(['SVC_NOT_FOUND']);
      const deleted = await graphql(ACME, `mutation { deleteProject(id: "${id('globex:Website')}") }`);
      expect(deleted.codes).toEqual(['SVC_NOT_FOUND']);
      const created = await graphql(
        ACME,
        `mutation { createTask(input: { title: "Across", projectId: ${id('globex:Website')} }) { id } }`,
      );
      expect(created.codes).toEqual(['SVC_UNRESOLVED_RELATION']);
      // The input types have no tenant field at all: naming one is refused before anything runs.
      const smuggled = await graphql(
        ACME,
        'mutation { createProject(input: { name: "X", tenantId: "globex" }) { id } }',
      );
      expect(smuggled.status).toBe(400);
      expect(await everyRow()).toEqual(before);
    });

    it('pins the caller’s tenant on a create', async () => {
      const created = await graphql(
        GLOBEX,
        'mutation { createProject(input: { name: "From GraphQL" }) { id tenantId } }',
      );
      expect(created.data).toMatchObject({ createProject: { tenantId: 'globex' } });
    });

    it('answers a caller without a tenant SVC_FORBIDDEN', async () => {
      for (const token of [TENANTLESS, undefined]) {
        expect((await graphql(token, '{ projects { total } }')).codes).toEqual(['SVC_FORBIDDEN']);
      }
    });
  });

  describe('the agent tools (MCP) keep the same rules', () => {
    const connect = (token?: string): Promise<McpTestClient> =>
      connectMcp('v2 client, 2026-07-28', {
        url: `${base}/mcp`,
        headers: token ? { authorization: `Bearer ${token}` } : {},
      });

    it('lists and reads the caller’s rows only', async () => {
      const client = await connect(ACME);
      try {
        const tools = (await client.listTools()).map((tool) => tool.name);
        expect(tools).toEqual(expect.arrayContaining(['project_find_many', 'task_patch_one', 'task_create_one']));
        const listed = await client.callTool('project_find_many', { limit: 100 });
        const items = (listed.structuredContent as { items: { tenantId: string }[] }).items;
        expect(items.length).toBeGreaterThan(0);
        expect(new Set(items.map((item) => item.tenantId))).toEqual(new Set(['acme']));
        const other = await client.callTool('task_find_one', { id: id('globex:Hire a henchman') });
        expect(other).toMatchObject({ isError: true, structuredContent: { code: 'SVC_NOT_FOUND' } });
      } finally {
        await client.close();
      }
    });

    it('fails a write tool on the other tenant’s rows with isError, writing nothing', async () => {
      const client = await connect(ACME);
      const before = await everyRow();
      try {
        const patched = await client.callTool('task_patch_one', {
          id: id('globex:Hire a henchman'),
          data: { done: true },
        });
        expect(patched).toMatchObject({ isError: true, structuredContent: { code: 'SVC_NOT_FOUND' } });
        const deleted = await client.callTool('project_delete_one', { id: id('globex:Website') });
        expect(deleted).toMatchObject({ isError: true, structuredContent: { code: 'SVC_NOT_FOUND' } });
        const created = await client.callTool('task_create_one', {
          data: { title: 'Across', projectId: id('globex:Website') },
        });
        expect(created).toMatchObject({ isError: true, structuredContent: { code: 'SVC_UNRESOLVED_RELATION' } });
      } finally {
        await client.close();
      }
      expect(await everyRow()).toEqual(before);
    });

    it('gives a reader the read tools only, and a caller without a tenant none but svc_describe', async () => {
      const reader = await connect(GLOBEX_READER);
      const tenantless = await connect(TENANTLESS);
      const anonymous = await connect();
      try {
        const readerTools = (await reader.listTools()).map((tool) => tool.name);
        expect(readerTools).toContain('task_find_many');
        expect(readerTools).not.toContain('task_create_one');
        for (const client of [tenantless, anonymous]) {
          expect((await client.listTools()).map((tool) => tool.name)).toEqual(['svc_describe']);
          const refused = await client.callTool('project_find_many', {});
          expect(refused).toMatchObject({ isError: true, structuredContent: { code: 'SVC_FORBIDDEN' } });
        }
      } finally {
        await Promise.all([reader.close(), tenantless.close(), anonymous.close()]);
      }
    });
  });

  describe('a caller without a tenant gets nothing', () => {
    it.each([
      ['a token that names no tenant', TENANTLESS],
      ['no token', undefined],
    ])('answers %s 403 on lists and creates, 404 on single rows, and writes nothing', async (_what, token) => {
      const before = await everyRow();
      const calls: [string, string, unknown][] = [
        ['GET', '/projects', undefined],
        ['GET', '/tasks?include=project', undefined],
        ['POST', '/projects', { name: 'Nobody’s' }],
        ['GET', `/projects/${id('acme:Website')}`, undefined],
        ['PATCH', `/tasks/${id('acme:Pick a font')}`, { done: false }],
        ['DELETE', `/tasks/${id('globex:Buy the domain')}`, undefined],
      ];
      const answers = [];
      for (const [method, path, body] of calls) {
        const answer = await api(method, path, token, body);
        answers.push(`${method} ${path}: ${answer.status} ${String(answer.body['code'])}`);
      }
      expect(answers).toEqual([
        'GET /projects: 403 SVC_FORBIDDEN',
        'GET /tasks?include=project: 403 SVC_FORBIDDEN',
        'POST /projects: 403 SVC_FORBIDDEN',
        // A single row is looked up inside the caller's scope before the policy is asked, and this scope holds none.
        `GET /projects/${id('acme:Website')}: 404 SVC_NOT_FOUND`,
        `PATCH /tasks/${id('acme:Pick a font')}: 404 SVC_NOT_FOUND`,
        `DELETE /tasks/${id('globex:Buy the domain')}: 404 SVC_NOT_FOUND`,
      ]);
      expect(await everyRow()).toEqual(before);
    });
  });

  describe.each(UNVERIFIED)('a token for acme %s', (_what, token) => {
    it('is a 401 on REST, writing nothing', async () => {
      const before = await everyRow();
      expect((await api('GET', '/projects', token)).status).toBe(401);
      expect((await api('POST', '/projects', token, { name: 'Forged' })).status).toBe(401);
      expect(await everyRow()).toEqual(before);
    });

    it('is a 401 on GraphQL', async () => {
      const response = await fetch(`${base}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ query: '{ projects { total } }' }),
      });
      expect(response.status).toBe(401);
    });

    it('is a 401 on the agent tools', async () => {
      await expect(
        connectMcp('v2 client, 2026-07-28', { url: `${base}/mcp`, headers: { authorization: `Bearer ${token}` } }),
      ).rejects.toThrow(/401|Unauthorized|invalid_token/i);
    });

    it('is a 401 on the event stream', async () => {
      const response = await fetch(`${base}/tasks/events?access_token=${token}`, {
        headers: { accept: 'text/event-stream' },
      });
      expect(response.status).toBe(401);
      expect(response.headers.get('www-authenticate')).toContain('invalid_token');
    });
  });
});

describe('the tracker without a cacheKey', () => {
  it('does not boot: its cached project reads are scoped per tenant, and nothing partitions them', async () => {
    const moduleRef = await Test.createTestingModule({
      imports: [
        TypeOrmModule.forRoot(tenancyDatabaseOptions(':memory:')),
        SvcModule.forRoot({ infrastructure: typeorm(), realtimeTransports: [sse()] }),
      ],
      controllers: [ProjectsController, TasksController],
    }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    try {
      await expect(app.init()).rejects.toThrow(/Project: cache\.ttl .*no cacheKey\(context\) partitions them/);
    } finally {
      await app.close();
    }
  });
});

describe('the multi-tenancy guide', () => {
  it('shows the app’s real code: each block taken from a file under src/tenancy is in that file, verbatim', () => {
    const quoted = docBlocks(GUIDE).flatMap((block) => {
      const from = /^\/\/ Fragment: from examples\/nest-typeorm\/(src\/tenancy\/\S+)/.exec(block.body);
      return from ? [{ file: from[1]!, code: block.body.split('\n').slice(1).join('\n') }] : [];
    });
    expect(quoted.length).toBeGreaterThan(3);
    for (const { file, code } of quoted) {
      const source = readFileSync(join(EXAMPLE, file), 'utf8');
      const parts = code.split(/\n\s*\/\/ \.\.\.\n/);
      for (const part of parts) expect({ file, found: source.includes(part) }).toEqual({ file, found: true });
    }
  });
});
