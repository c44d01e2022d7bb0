/**
 * A column that holds a list, TypeORM's `simple-array` on every database and an array column on PostgreSQL, is read
 * and written as a JSON array of its item kind: the body is checked item by item (a `simple-array` item may not hold
 * the comma that separates stored values), OpenAPI and the MCP tools describe it as an array, and a list is filtered
 * by null only.
 */
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import request from 'supertest';
import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { dereferenced } from '../support/openapi-checks';
import { TEST_DATABASES } from '../support/test-databases';

@Entity('list_column_note')
class Note {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) title!: string;
  @Column({ type: 'simple-array', nullable: true }) tags!: string[] | null;
}

@Entity('list_column_reading')
class Reading {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int', array: true }) values!: number[];
  @Column({ type: 'text', array: true, nullable: true }) labels!: string[] | null;
}

/** The parts of an operation of the OpenAPI document this test reads. */
interface PostOperation {
  readonly requestBody: { content: Record<string, { schema: { properties: Record<string, unknown> } }> };
  readonly responses: Record<string, { content: Record<string, { schema: { properties: Record<string, unknown> } }> }>;
}

describe.each(TEST_DATABASES)('A list column on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_list_columns',
      entities: [Note],
      controllers: [svcController('notes', Note)],
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores and serves an array of text', async () => {
    const created = await request(t.server)
      .post('/notes')
      .send({ title: 'a', tags: ['red', 'blue'] });
    expect(created.status).toBe(201);
    expect(created.body.tags).toEqual(['red', 'blue']);
    expect((await t.dataSource.getRepository(Note).findOneByOrFail({ id: created.body.id })).tags).toEqual([
      'red',
      'blue',
    ]);
    const patched = await request(t.server)
      .patch(`/notes/${created.body.id}`)
      .send({ tags: ['green'] });
    expect(patched.body.tags).toEqual(['green']);
    expect((await request(t.server).get(`/notes/${created.body.id}`)).body.tags).toEqual(['green']);
  });

  it('refuses what it cannot store as sent, naming the item, and stores nothing', async () => {
    const before = await t.dataSource.getRepository(Note).count();
    for (const [tags, detail] of [
      ['red,blue', 'must be an array of string values'],
      [['red', 3], 'item [1] must be a string'],
      [['red', null], 'item [1] must not be null'],
      [['red, or blue'], "item [0] must not contain ','"],
    ] as const) {
      const refused = await request(t.server).post('/notes').send({ title: 'b', tags });
      expect(refused.status).toBe(400);
      expect(refused.body.errors[0]).toMatchObject({ field: 'tags' });
      expect(refused.body.errors[0].detail).toContain(detail);
    }
    expect(await t.dataSource.getRepository(Note).count()).toBe(before);
  });

  it('is an array of strings in the OpenAPI document, in the bodies it takes and serves', () => {
    const document = dereferenced(
      SwaggerModule.createDocument(t.app, new DocumentBuilder().setOpenAPIVersion('3.1.0').build()),
    ) as unknown as { paths: Record<string, Record<string, PostOperation>> };
    const post = document.paths['/notes']!['post']!;
    const input = post.requestBody.content['application/json'].schema.properties['tags'];
    const output = post.responses['201']!.content['application/json'].schema.properties['tags'];
    for (const schema of [input, output]) expect(JSON.stringify(schema)).toContain('"items":{"type":"string"}');
  });

  it('filters a list by null only', async () => {
    expect((await request(t.server).get('/notes?filter[tags][isNotNull]=true')).status).toBe(200);
    const refused = await request(t.server).get('/notes?filter[tags][eq]=red');
    expect(refused.status).toBe(400);
  });

  // Array columns are PostgreSQL's own.
  if (db.name === 'postgres')
    describe('and an array column', () => {
      let t: TestApp;

      beforeAll(async () => {
        t = await createTestApp({
          db,
          suite: 'e2e_array_columns',
          entities: [Reading],
          controllers: [svcController('readings', Reading)],
        });
      });
      afterAll(async () => {
        await t?.close();
      });

      it('stores and serves arrays of its element kind, and checks each item', async () => {
        const created = await request(t.server)
          .post('/readings')
          .send({ values: [1, 2, 3], labels: ['a, with a comma', 'b'] });
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({ values: [1, 2, 3], labels: ['a, with a comma', 'b'] });
        expect((await request(t.server).get(`/readings/${created.body.id}`)).body.values).toEqual([1, 2, 3]);
        const refused = await request(t.server)
          .post('/readings')
          .send({ values: [1, 2.5] });
        expect(refused.status).toBe(400);
        expect(refused.body.errors[0].detail).toContain('item [1] must be an integer');
      });
    });
});
