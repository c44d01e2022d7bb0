/**
 * `computed`: fields the database computes per row in the read's own statement, from SQL that may depend on the caller
 * (`likedByMe`), served on lists, single reads, write answers, includes and GraphQL; never written, filtered or
 * sorted; never cached; scoped as the rows are.
 */
import request from 'supertest';
import { sql, table, type EntityConfig, type SvcContext } from '@svc/core';
import { Column, Entity, JoinColumn, JoinTable, ManyToMany, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { postGraphql } from './support/graphql-http';

@Entity('cf_member')
class CfMember {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 60 }) name!: string;
}

@Entity('cf_post')
class CfPost {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 120 }) title!: string;
  @ManyToOne(() => CfMember, { nullable: true })
  @JoinColumn({ name: 'author_id' })
  author!: CfMember | null;
  @ManyToMany(() => CfMember)
  @JoinTable({ name: 'cf_likes', joinColumn: { name: 'post_id' }, inverseJoinColumn: { name: 'member_id' } })
  likedBy!: CfMember[];
}

const header = (context: SvcContext, name: string): string | undefined =>
  (context.request as { headers?: Record<string, string | undefined> } | undefined)?.headers?.[name];
/** The caller's member id, from `x-user` (a number, or null for an anonymous caller). */
const callerOf = (context: SvcContext): number | null => {
  const id = Number(header(context, 'x-user'));
  return Number.isInteger(id) ? id : null;
};
const tenantScope: NonNullable<EntityConfig['filter']>['apply'] = ({ context }) => ({
  tenant: { eq: header(context, 'x-tenant') ?? 'none' },
});

const postConfig: EntityConfig<CfPost> = {
  filter: { apply: tenantScope },
  include: { fields: ['author'] },
  set: { create: ({ context }) => ({ tenant: header(context, 'x-tenant') }) },
  computed: {
    likedByMe: {
      kind: 'boolean',
      select: (column, context) =>
        sql`EXISTS (SELECT 1 FROM ${table('cf_likes')} l WHERE l.post_id = ${column('id')} AND l.member_id = ${callerOf(context)})`,
    },
    titleIsProbe: {
      kind: 'boolean',
      select: (column, context) => sql`${column('title')} = ${header(context, 'x-probe') ?? null}`,
      nullable: true,
    },
    likeCount: {
      kind: 'integer',
      select: (column) => sql`(SELECT COUNT(*) FROM ${table('cf_likes')} l WHERE l.post_id = ${column('id')})`,
    },
  },
};
const memberConfig: EntityConfig<CfMember> = {
  filter: { apply: tenantScope },
  computed: {
    postCount: {
      kind: 'integer',
      select: (column) => sql`(SELECT COUNT(*) FROM ${table('cf_post')} p WHERE p.author_id = ${column('id')})`,
    },
    isMe: { kind: 'boolean', select: (column, context) => sql`${column('id')} = ${callerOf(context) ?? -1}` },
  },
};

describe.each(TEST_DATABASES)('computed fields on $name', (db) => {
  let t: TestApp;
  let ann: CfMember;
  let bob: CfMember;
  let other: CfMember;
  let first: CfPost;
  let second: CfPost;
  const as = (user: CfMember | undefined, tenant = 'a') => ({
    'x-tenant': tenant,
    ...(user ? { 'x-user': String(user.id) } : {}),
  });

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_computed_fields',
      entities: [CfMember, CfPost],
      controllers: [svcController('posts', CfPost, postConfig), svcController('members', CfMember, memberConfig)],
      svc: { graphql: true },
    });
    const members = t.dataSource.getRepository(CfMember);
    [ann, bob, other] = await members.save([
      { tenant: 'a', name: 'Ann' },
      { tenant: 'a', name: 'Bob' },
      { tenant: 'b', name: 'Other' },
    ]);
    const posts = t.dataSource.getRepository(CfPost);
    [first, second] = await posts.save([
      { tenant: 'a', title: 'First', author: ann },
      { tenant: 'a', title: 'Second', author: ann },
      { tenant: 'b', title: 'Elsewhere', author: other },
    ]);
    const likes = t.dataSource.createQueryBuilder().relation(CfPost, 'likedBy');
    await likes.of(first).add([ann, bob]);
    await likes.of(second).add(bob);
  });
  afterAll(() => t?.close());

  it('computes per row and per caller on a list, in the same statement', async () => {
    const byAnn = await request(t.server).get('/posts?sort=id').set(as(ann)).expect(200);
    expect(
      byAnn.body.items.map((post: Record<string, unknown>) => [post.title, post.likedByMe, post.likeCount]),
    ).toEqual([
      ['First', true, 2],
      ['Second', false, 1],
    ]);
    const byBob = await request(t.server).get('/posts?sort=id').set(as(bob)).expect(200);
    expect(byBob.body.items.map((post: Record<string, unknown>) => post.likedByMe)).toEqual([true, true]);
    const anonymous = await request(t.server).get('/posts?sort=id').set(as(undefined)).expect(200);
    expect(anonymous.body.items.map((post: Record<string, unknown>) => post.likedByMe)).toEqual([false, false]);
  });

  it('serves them on a single read, with select narrowing to them', async () => {
    const read = await request(t.server).get(`/posts/${second.id}`).set(as(bob)).expect(200);
    expect(read.body).toMatchObject({ title: 'Second', likedByMe: true, likeCount: 1 });
    const narrowed = await request(t.server).get(`/posts?select=likeCount&sort=id`).set(as(bob)).expect(200);
    expect(narrowed.body.items[0]).toEqual({ likeCount: 2 });
  });

  it("answers writes with the caller's computed values, and never writes them", async () => {
    const created = await request(t.server).post('/posts').set(as(ann)).send({ title: 'Third' }).expect(201);
    expect(created.body).toMatchObject({ title: 'Third', likedByMe: false, likeCount: 0 });
    await t.dataSource.createQueryBuilder().relation(CfPost, 'likedBy').of(created.body.id).add(ann);
    const patched = await request(t.server)
      .patch(`/posts/${created.body.id}`)
      .set(as(ann))
      .send({ title: 'Third, again' })
      .expect(200);
    expect(patched.body).toMatchObject({ title: 'Third, again', likedByMe: true, likeCount: 1 });
    // Read-only, as a generated column is: a value sent back with a body is dropped, never written.
    const sent = await request(t.server).post('/posts').set(as(ann)).send({ title: 'X', likeCount: 99 }).expect(201);
    expect(sent.body).toMatchObject({ title: 'X', likeCount: 0 });
    await request(t.server).delete(`/posts/${sent.body.id}`).set(as(ann)).expect(204);
  });

  it("takes a read's ETag in If-Match: computed values are the caller's, not the row's state", async () => {
    const read = await request(t.server).get(`/posts/${second.id}`).set(as(bob)).expect(200);
    const other = await request(t.server).get(`/posts/${second.id}`).set(as(ann)).expect(200);
    expect(other.body.likedByMe).not.toBe(read.body.likedByMe);
    await request(t.server)
      .patch(`/posts/${second.id}`)
      .set({ ...as(bob), 'If-Match': String(read.headers.etag) })
      .send({ title: 'Second' })
      .expect(200);
    await request(t.server)
      .patch(`/posts/${second.id}`)
      .set({ ...as(ann), 'If-Match': String(other.headers.etag) })
      .send({ title: 'Second' })
      .expect(200);
    await request(t.server)
      .get(`/posts/${second.id}`)
      .set({ ...as(bob), 'If-None-Match': String(read.headers.etag) })
      .expect(304);
  });

  it("computes an included row's fields for the caller", async () => {
    const read = await request(t.server).get(`/posts/${first.id}?include=author`).set(as(ann)).expect(200);
    expect(read.body.author).toMatchObject({ name: 'Ann', postCount: 2, isMe: true });
    const byBob = await request(t.server).get(`/posts/${first.id}?include=author`).set(as(bob)).expect(200);
    expect(byBob.body.author).toMatchObject({ name: 'Ann', isMe: false });
  });

  it('refuses a filter or a sort on a computed field, as on any field the database cannot compare', async () => {
    const filtered = await request(t.server).get('/posts?filter[likeCount][gt]=0').set(as(ann)).expect(400);
    expect(JSON.stringify(filtered.body)).toContain('likeCount');
    const sorted = await request(t.server).get('/posts?sort=likeCount').set(as(ann)).expect(400);
    expect(JSON.stringify(sorted.body)).toContain('likeCount');
  });

  it("keeps another tenant's rows out: scope applies before anything is computed", async () => {
    const list = await request(t.server).get('/posts?sort=id').set(as(other, 'b')).expect(200);
    expect(list.body.items.map((post: Record<string, unknown>) => post.title)).toEqual(['Elsewhere']);
    expect(list.body.items[0]).toMatchObject({ likedByMe: false, likeCount: 0 });
    await request(t.server).get(`/posts/${first.id}`).set(as(other, 'b')).expect(404);
    const author = await request(t.server).get(`/members/${ann.id}`).set(as(other, 'b')).expect(404);
    expect(JSON.stringify(author.body)).not.toContain('postCount');
  });

  it('binds the caller-dependent values: a hostile caller id is a value, never SQL', async () => {
    const probe = (value: string) =>
      request(t.server)
        .get('/posts?sort=id&select=title,titleIsProbe')
        .set({ ...as(ann), 'x-probe': value })
        .expect(200);
    const exact = await probe('First');
    expect(exact.body.items.map((post: Record<string, unknown>) => post.titleIsProbe)).toEqual([true, false, false]);
    const hostile = await probe("First' OR '1'='1");
    expect(hostile.body.items.map((post: Record<string, unknown>) => post.titleIsProbe)).toEqual([false, false, false]);
  });

  it('serves them over GraphQL as read-only fields', async () => {
    const answer = await postGraphql<{
      cfPosts: { items: { title: string; likedByMe: boolean; likeCount: number }[] };
    }>(t.server, { query: '{ cfPosts(sort: ["id"]) { items { title likedByMe likeCount } } }', headers: as(bob) });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.cfPosts.items.slice(0, 2)).toEqual([
      { title: 'First', likedByMe: true, likeCount: 2 },
      { title: 'Second', likedByMe: true, likeCount: 1 },
    ]);
  });
});

describe('computed fields at bootstrap', () => {
  const db = TEST_DATABASES[0]!;
  const boot = (config: EntityConfig) =>
    bootstrapFailure({
      db,
      suite: 'e2e_computed_boot',
      entities: [CfMember, CfPost],
      controllers: [svcController('members', CfMember, config)],
    });
  const count = { kind: 'integer' as const, select: () => sql`1` };

  it('refuses a name a column already has, an unknown kind and a select that is no function', async () => {
    expect((await boot({ computed: { name: count } })).message).toContain('computed.name');
    expect((await boot({ computed: { n: { kind: 'text', select: () => sql`1` } } } as never)).message).toContain(
      'computed.n.kind',
    );
    expect((await boot({ computed: { n: { kind: 'integer', select: 'SELECT 1' } } } as never)).message).toContain(
      'computed.n.select',
    );
  });

  it('refuses the result cache on an entity that serves computed fields', async () => {
    const error = await boot({ cache: { ttl: 60 }, computed: { n: count } });
    expect(error.message).toContain('cache.ttl');
    expect(error.message).toContain("'n'");
  });
});
