/**
 * Two tenants over GraphQL: every entity is scoped by `filter.apply` on the caller's tenant (a header of the HTTP
 * request the context carries), and that scope holds through relation fields in both directions, relation-path
 * filters, references on writes and single-row reads, so one tenant never reads, probes or pins the other's rows.
 */
import type { EntityConfig, SvcContext } from '@svc/core';
import { Column, Entity, JoinColumn, ManyToOne, OneToMany, PrimaryGeneratedColumn } from 'typeorm';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { dataOf, errorOf, postGraphql } from './support/graphql-http';

@Entity('g_author')
class Writer {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 100 }) name!: string;
  @Column({ type: 'varchar', length: 100, nullable: true }) secret!: string | null;
  @OneToMany(() => Novel, (novel) => novel.writer) novels!: Novel[];
}

@Entity('g_book')
class Novel {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 200 }) title!: string;
  @Column({ type: 'int', nullable: true }) writerId!: number | null;
  @ManyToOne(() => Writer, (writer) => writer.novels, { nullable: true })
  @JoinColumn({ name: 'writerId' })
  writer!: Writer | null;
}

function tenantOf(context: SvcContext): string {
  const value = (context.request as { headers?: Record<string, unknown> } | undefined)?.headers?.['x-tenant'];
  return typeof value === 'string' ? value : 'nobody';
}

function scoped(config: EntityConfig): EntityConfig {
  return {
    ...config,
    filter: { ...config.filter, apply: ({ context }) => ({ tenant: { eq: tenantOf(context) } }) },
    set: { create: ({ context }) => ({ tenant: tenantOf(context) }) },
  };
}

describe.each(TEST_DATABASES)('GraphQL tenant scoping on $name', (db) => {
  let t: TestApp;
  const as = <T = Record<string, unknown>>(tenant: string, query: string) =>
    postGraphql<T>(t.server, { query, headers: { 'x-tenant': tenant } });
  let ids: { annA: number; bobB: number; mixed: number; ownB: number };

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_graphql_scope',
      entities: [Writer, Novel],
      controllers: [
        svcController(
          'writers',
          Writer,
          scoped({
            include: { fields: ['novels'] },
            select: { fields: { exclude: ['secret'] } },
            schema: { input: { create: ['name'], update: ['name'] } },
          }),
        ),
        svcController(
          'novels',
          Novel,
          scoped({
            include: { fields: ['writer'] },
            filter: { fields: ['title', 'writer.name'] },
            schema: { input: { create: ['title', 'writer'], update: ['title', 'writer'] } },
          }),
        ),
      ],
      svc: { graphql: true },
    });
    const writers = t.dataSource.getRepository(Writer);
    const novels = t.dataSource.getRepository(Novel);
    const [annA, bobB] = await writers.save([
      { tenant: 'a', name: 'Ann', secret: 'a-secret' },
      { tenant: 'b', name: 'Bob', secret: 'b-secret' },
    ]);
    // A row of tenant a that points at tenant b's writer: the relation must not lend b's row to a.
    const [, mixed, ownB] = await novels.save([
      { tenant: 'a', title: 'A by Ann', writer: annA! },
      { tenant: 'a', title: 'A by Bob', writer: bobB! },
      { tenant: 'b', title: 'B by Ann', writer: annA! },
    ]);
    ids = { annA: annA!.id, bobB: bobB!.id, mixed: mixed!.id, ownB: ownB!.id };
  });

  afterAll(async () => {
    await t?.close();
  });

  it("lists only the caller's rows, and a relation to the other tenant's row reads as null", async () => {
    const answer = await as<{ novels: { items: { title: string; writer: { name: string } | null }[] } }>(
      'a',
      '{ novels(sort: ["title"]) { items { title writer { name } } } }',
    );
    expect(dataOf(answer).novels.items).toEqual([
      { title: 'A by Ann', writer: { name: 'Ann' } },
      { title: 'A by Bob', writer: null },
    ]);
  });

  it("leaves the other tenant's rows out of a to-many relation field", async () => {
    const answer = await as<{ writer: { name: string; novels: { title: string }[] } }>(
      'a',
      `{ writer(id: "${ids.annA}") { name novels { title } } }`,
    );
    expect(dataOf(answer).writer).toEqual({ name: 'Ann', novels: [{ title: 'A by Ann' }] });
  });

  it("answers the other tenant's row as SVC_NOT_FOUND, never as forbidden", async () => {
    errorOf(await as('a', `{ novel(id: "${ids.ownB}") { title } }`), 'SVC_NOT_FOUND');
    errorOf(await as('a', `{ writer(id: "${ids.bobB}") { name } }`), 'SVC_NOT_FOUND');
  });

  it("cannot probe the other tenant's rows through a relation-path filter", async () => {
    const answer = await as<{ novels: { total: number } }>(
      'a',
      '{ novels(filter: { writer: { name: { eq: "Bob" } } }) { total } }',
    );
    expect(dataOf(answer).novels.total).toBe(0);
  });

  it("cannot pin a write to the other tenant's row by reference", async () => {
    const answer = await as(
      'a',
      `mutation { createNovel(input: { title: "X", writer: { id: "${ids.bobB}" } }) { id } }`,
    );
    errorOf(answer, 'SVC_UNRESOLVED_RELATION');
  });

  it("cannot change or delete the other tenant's row", async () => {
    errorOf(
      await as('a', `mutation { patchNovel(id: "${ids.ownB}", input: { title: "mine" }) { id } }`),
      'SVC_NOT_FOUND',
    );
    errorOf(await as('a', `mutation { deleteNovel(id: "${ids.ownB}") }`), 'SVC_NOT_FOUND');
    const stored = await t.dataSource.getRepository(Novel).findOneByOrFail({ id: ids.ownB });
    expect(stored.title).toBe('B by Ann');
  });

  it('stamps the tenant with set on create, and the new row reads back with its relation', async () => {
    const answer = await as<{ createNovel: { title: string; writer: { name: string } } }>(
      'b',
      `mutation { createNovel(input: { title: "New B", writer: { id: "${ids.bobB}" } }) { title writer { name } } }`,
    );
    expect(dataOf(answer).createNovel).toEqual({ title: 'New B', writer: { name: 'Bob' } });
    const stored = await t.dataSource.getRepository(Novel).findOneByOrFail({ title: 'New B' });
    expect(stored.tenant).toBe('b');
  });

  it('serves no column outside select.fields, through a relation field either', async () => {
    const answer = await as('a', `{ novel(id: "${ids.mixed}") { writer { secret } } }`);
    expect(answer.status).toBe(400);
    expect(answer.errors?.[0]?.message).toMatch(/secret/);
  });
});
