/**
 * `relations.<name>.values`: a to-many relation served over REST as one field of its rows (`tags: ['a', 'b']`) and
 * written as that list, which replaces the members (each connected to the row holding the value, or created); and a
 * write's answer carries the relations a read includes by default.
 */
import request from 'supertest';
import type { EntityConfig, SvcContext } from '@svc/core';
import { Column, Entity, JoinTable, ManyToMany, PrimaryGeneratedColumn } from 'typeorm';
import { bootstrapFailure, createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { postGraphql } from './support/graphql-http';

@Entity('rv_tag')
class RvTag {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 40, unique: true }) name!: string;
}

@Entity('rv_post')
class RvPost {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) tenant!: string;
  @Column({ type: 'varchar', length: 120 }) title!: string;
  @ManyToMany(() => RvTag)
  @JoinTable({ name: 'rv_post_tags', joinColumn: { name: 'post_id' }, inverseJoinColumn: { name: 'tag_id' } })
  tags!: RvTag[];
}

const tenantOf = (context: SvcContext) =>
  (context.request as { headers?: Record<string, string | undefined> } | undefined)?.headers?.['x-tenant'] ?? 'none';
const scoped = {
  filter: { apply: ({ context }: { context: SvcContext }) => ({ tenant: { eq: tenantOf(context) } }) },
  set: { create: ({ context }: { context: SvcContext }) => ({ tenant: tenantOf(context) }) },
};
const postConfig: EntityConfig<RvPost> = {
  ...scoped,
  include: { fields: ['tags'], default: ['tags'] },
  relations: { tags: { values: 'name', write: { nested: { connectOrCreate: ['name'] } } } },
  schema: { input: { create: ['title'], update: ['title'] } },
};

describe.each(TEST_DATABASES)('relation values on $name', (db) => {
  let t: TestApp;
  const a = { 'x-tenant': 'a' };
  const b = { 'x-tenant': 'b' };
  const tagNames = async () =>
    (await t.dataSource.getRepository(RvTag).find({ order: { id: 'ASC' } })).map((tag) => tag.name);

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_relation_values',
      entities: [RvTag, RvPost],
      controllers: [svcController('posts', RvPost, postConfig), svcController('tags', RvTag, scoped)],
      svc: { graphql: true },
    });
  });
  afterAll(() => t?.close());

  it('creates with a list of values, making the rows that do not exist, and answers with the list', async () => {
    const created = await request(t.server)
      .post('/posts')
      .set(a)
      .send({ title: 'One', tags: ['dragons', 'magic'] })
      .expect(201);
    expect(created.body).toMatchObject({ title: 'One', tags: ['dragons', 'magic'] });
    const again = await request(t.server)
      .post('/posts')
      .set(a)
      .send({ title: 'Two', tags: ['magic', 'sea'] })
      .expect(201);
    expect(again.body.tags).toEqual(['magic', 'sea']);
    expect(await tagNames()).toEqual(['dragons', 'magic', 'sea']);
    const read = await request(t.server).get(`/posts/${created.body.id}`).set(a).expect(200);
    expect(read.body.tags).toEqual(['dragons', 'magic']);
    const list = await request(t.server).get('/posts?sort=id').set(a).expect(200);
    expect(list.body.items.map((post: RvPost) => post.tags)).toEqual([
      ['dragons', 'magic'],
      ['magic', 'sea'],
    ]);
  });

  it('replaces the members with a list, keeps them without one, and empties them with []', async () => {
    const created = await request(t.server)
      .post('/posts')
      .set(a)
      .send({ title: 'Three', tags: ['dragons'] })
      .expect(201);
    const replaced = await request(t.server)
      .patch(`/posts/${created.body.id}`)
      .set(a)
      .send({ tags: ['sea', 'sky'] })
      .expect(200);
    expect(replaced.body.tags).toEqual(['sea', 'sky']);
    const kept = await request(t.server)
      .patch(`/posts/${created.body.id}`)
      .set(a)
      .send({ title: 'Three!' })
      .expect(200);
    expect(kept.body).toMatchObject({ title: 'Three!', tags: ['sea', 'sky'] });
    const emptied = await request(t.server).patch(`/posts/${created.body.id}`).set(a).send({ tags: [] }).expect(200);
    expect(emptied.body.tags).toEqual([]);
    const read = await request(t.server).get(`/posts/${created.body.id}`).set(a).expect(200);
    expect(read.body.tags).toEqual([]);
  });

  it('refuses null and values of the wrong kind, naming the path, writing nothing', async () => {
    const created = await request(t.server)
      .post('/posts')
      .set(a)
      .send({ title: 'Four', tags: ['sea'] })
      .expect(201);
    const refused = await request(t.server).patch(`/posts/${created.body.id}`).set(a).send({ tags: null }).expect(400);
    expect(refused.body.errors[0].field).toBe('tags');
    const wrong = await request(t.server)
      .post('/posts')
      .set(a)
      .send({ title: 'Five', tags: [{ nope: 1 }] })
      .expect(400);
    expect(JSON.stringify(wrong.body)).toContain('tags[0]');
    expect((await request(t.server).get(`/posts/${created.body.id}`).set(a).expect(200)).body.tags).toEqual(['sea']);
  });

  it("answers another tenant's value as taken, and never connects its row", async () => {
    const taken = await request(t.server)
      .post('/posts')
      .set(b)
      .send({ title: 'B', tags: ['dragons'] })
      .expect(409);
    expect(JSON.stringify(taken.body)).not.toContain('"tenant":"a"');
    const own = await request(t.server)
      .post('/posts')
      .set(b)
      .send({ title: 'B', tags: ['reef'] })
      .expect(201);
    expect(own.body.tags).toEqual(['reef']);
    const list = await request(t.server).get('/posts').set(b).expect(200);
    expect(list.body.items.map((post: RvPost) => post.tags)).toEqual([['reef']]);
  });

  it("takes a value named twice as one member, and never lets go of a member outside the caller's scope", async () => {
    const twice = await request(t.server)
      .post('/posts')
      .set(a)
      .send({ title: 'Twice', tags: ['echo', 'echo'] })
      .expect(201);
    expect(twice.body.tags).toEqual(['echo']);
    const foreign = await t.dataSource.getRepository(RvTag).findOneByOrFail({ name: 'reef' });
    await t.dataSource.createQueryBuilder().relation(RvPost, 'tags').of(twice.body.id).add(foreign.id);
    const replaced = await request(t.server)
      .patch(`/posts/${twice.body.id}`)
      .set(a)
      .send({ tags: ['sea'] })
      .expect(200);
    expect(replaced.body.tags).toEqual(['sea']);
    const stored = await t.dataSource
      .getRepository(RvPost)
      .findOneOrFail({ where: { id: twice.body.id }, relations: { tags: true } });
    expect(stored.tags.map((tag) => tag.name).sort()).toEqual(['reef', 'sea']);
  });

  it('keeps the related rows and the nested forms on GraphQL', async () => {
    const answer = await postGraphql<{ rvPosts: { items: { title: string; tags: { name: string }[] }[] } }>(t.server, {
      query: '{ rvPosts(sort: ["id"], limit: 1) { items { title tags { name } } } }',
      headers: a,
    });
    expect(answer.errors).toBeUndefined();
    expect(answer.data?.rvPosts.items[0]).toEqual({ title: 'One', tags: [{ name: 'dragons' }, { name: 'magic' }] });
  });
});

describe('relation values at bootstrap', () => {
  const boot = (relations: EntityConfig['relations']) =>
    bootstrapFailure({
      db: TEST_DATABASES[0]!,
      suite: 'e2e_relation_values_boot',
      entities: [RvTag, RvPost],
      controllers: [
        svcController('tags', RvTag),
        svcController('posts', RvPost, { include: { fields: ['tags'] }, relations }),
      ],
    });

  it('refuses values written other than by connectOrCreate on that field, and a non-string field', async () => {
    const other = await boot({ tags: { values: 'name', write: { nested: { connect: true } } } });
    expect(other.message).toContain('connectOrCreate');
    const bad = await boot({ tags: { values: 3 as never } });
    expect(bad.message).toContain('relations.tags.values');
  });
});
