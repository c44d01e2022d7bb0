/**
 * `context.repository.relate` in a custom operation: members written in the call's transaction, the row in the
 * caller's scope and each added row in its own; a custom one-row write answering with the default includes; a custom
 * list read following `select.default`.
 */
import request from 'supertest';
import {
  builtInHandlers,
  type EntityConfig,
  type HandlerContext,
  type SvcContext,
  type SvcOperationInput,
} from '@svc/core';
import { Column, Entity, JoinColumn, JoinTable, ManyToMany, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

@Entity('re_member')
class ReMember {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 60 }) name!: string;
}

@Entity('re_post')
class RePost {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 120 }) title!: string;
  @Column({ type: 'text', nullable: true }) body!: string | null;
  @ManyToOne(() => ReMember, { nullable: true })
  @JoinColumn({ name: 'author_id' })
  author!: ReMember | null;
  @ManyToMany(() => ReMember)
  @JoinTable({ name: 're_likes', joinColumn: { name: 'post_id' }, inverseJoinColumn: { name: 'member_id' } })
  likedBy!: ReMember[];
}

const header = (context: Pick<SvcContext, 'request'>, name: string) =>
  (context.request as { headers?: Record<string, string | undefined> } | undefined)?.headers?.[name];
const scoped = {
  filter: { apply: ({ context }: { context: SvcContext }) => ({ tenant: { eq: header(context, 'x-tenant') ?? '-' } }) },
};
const like = (on: boolean) => async (input: SvcOperationInput, context: HandlerContext<RePost>) => {
  const member = Number(header(context, 'x-user'));
  await context.repository.relate(input.key!, 'likedBy', { remove: [member], add: on ? [member] : [] });
  return context.repository.findOne({ key: input.key! });
};
const postConfig: EntityConfig<RePost> = {
  ...scoped,
  include: { fields: ['author', 'likedBy'], default: ['author'] },
  select: { default: ['id', 'title'] },
  operations: {
    findMany: true,
    findOne: true,
    likeOne: { meta: { routes: { path: ':id/like', successStatus: 200 } }, handler: like(true) },
    unlikeOne: { meta: { routes: { method: 'DELETE', path: ':id/like', successStatus: 200 } }, handler: like(false) },
    recentMany: {
      kind: 'read',
      cardinality: 'many',
      meta: { routes: { method: 'GET', path: 'recent', successStatus: 200 } },
      handler: (input, context) => builtInHandlers.findMany(input, context),
    },
  },
};

describe.each(TEST_DATABASES)('relate and embedded answers on $name', (db) => {
  let t: TestApp;
  let ann: ReMember;
  let bob: ReMember;
  let other: ReMember;
  let post: RePost;
  let elsewhere: RePost;
  const likes = async (id: number) =>
    (await t.dataSource.getRepository(RePost).findOne({ where: { id }, relations: { likedBy: true } }))!.likedBy
      .map((member) => member.name)
      .sort();

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_relate_embed',
      entities: [ReMember, RePost],
      controllers: [svcController('posts', RePost, postConfig), svcController('members', ReMember, scoped)],
    });
    [ann, bob, other] = await t.dataSource.getRepository(ReMember).save([
      { tenant: 'a', name: 'Ann' },
      { tenant: 'a', name: 'Bob' },
      { tenant: 'b', name: 'Other' },
    ]);
    [post, elsewhere] = await t.dataSource.getRepository(RePost).save([
      { tenant: 'a', title: 'Hello', body: 'long text', author: ann },
      { tenant: 'b', title: 'Elsewhere', body: 'x', author: other },
    ]);
  });
  afterAll(() => t?.close());

  it('adds and removes members through relate, idempotently, and answers the row with its default includes', async () => {
    const as = { 'x-tenant': 'a', 'x-user': String(bob.id) };
    const liked = await request(t.server).post(`/posts/${post.id}/like`).set(as).expect(200);
    expect(liked.body).toMatchObject({ id: post.id, title: 'Hello', author: { id: ann.id, name: 'Ann' } });
    await request(t.server).post(`/posts/${post.id}/like`).set(as).expect(200);
    expect(await likes(post.id)).toEqual(['Bob']);
    await request(t.server).delete(`/posts/${post.id}/like`).set(as).expect(200);
    expect(await likes(post.id)).toEqual([]);
  });

  it("refuses a row outside the caller's scope as missing, and a member outside its own scope as unresolved", async () => {
    const intoOther = await request(t.server)
      .post(`/posts/${elsewhere.id}/like`)
      .set({ 'x-tenant': 'a', 'x-user': String(bob.id) })
      .expect(404);
    expect(intoOther.body.code).toBe('SVC_NOT_FOUND');
    const foreignMember = await request(t.server)
      .post(`/posts/${post.id}/like`)
      .set({ 'x-tenant': 'a', 'x-user': String(other.id) })
      .expect(422);
    expect(JSON.stringify(foreignMember.body)).not.toContain('Other');
    expect(await likes(post.id)).toEqual([]);
    expect(await likes(elsewhere.id)).toEqual([]);
  });

  it("serves a custom list read in the list's default projection, as findMany does", async () => {
    const recent = await request(t.server).get('/posts/recent').set({ 'x-tenant': 'a' }).expect(200);
    expect(recent.body.items).toEqual([
      { id: post.id, title: 'Hello', author: { id: ann.id, tenant: 'a', name: 'Ann' } },
    ]);
    const list = await request(t.server).get('/posts').set({ 'x-tenant': 'a' }).expect(200);
    expect(list.body.items).toEqual(recent.body.items);
  });
});
