/**
 * A to-one reference the row cannot be without: the description names it (as required, or with its foreign-key
 * column as a pair sent one way or the other), the body check asks for it before any SQL runs, naming what the client
 * may send, `set` may fill it through its column, and the OpenAPI document and the agent tools' schemas say the same.
 */
import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import request from 'supertest';
import { SvcRegistry } from '@svc/nestjs';
import type { EntityDescription } from '@svc/core';
import { inputSchemaOf } from '../../packages/mcp/src/tool-input-schema';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { createAjv } from '../support/openapi-requests';
import { StatementCounter } from '../support/statement-counter';
import { TEST_DATABASES } from '../support/test-databases';

@Entity('rr_volume')
class Volume {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 50 }) title!: string;
}

/** The reference with its foreign key mapped as a column: either may be sent. */
@Entity('rr_chapter')
class Chapter {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 50 }) title!: string;
  @Column({ type: 'int' }) volumeId!: number;
  @ManyToOne(() => Volume, { nullable: false, onDelete: 'CASCADE' })
  @JoinColumn({ name: 'volumeId' })
  volume!: Volume;
}

/** The reference alone: its foreign key has no property. */
@Entity('rr_leaf')
class Leaf {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 50 }) text!: string;
  @ManyToOne(() => Volume, { nullable: false, onDelete: 'CASCADE' })
  volume!: Volume;
}

const ENTITIES = [Volume, Chapter, Leaf];

describe.each(TEST_DATABASES)('Required references on $name', (db) => {
  let t: TestApp;
  let volumeId: number;
  const counter = new StatementCounter();
  const describeOf = (target: Function): EntityDescription => t.app.get(SvcRegistry).serviceFor(target).describe();

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_required_refs',
      entities: ENTITIES,
      dataSource: { logging: true, logger: counter },
      controllers: [
        svcController('volumes', Volume),
        svcController('chapters', Chapter),
        svcController('leaves', Leaf),
        // The column is filled by the server: a body need send neither.
        svcController('filed', Chapter, { set: { create: () => ({ volumeId }) } }),
      ],
    });
    volumeId = (await t.dataSource.getRepository(Volume).save({ title: 'One' })).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('describes a reference and its column as a pair sent one way, and a bare reference as required', () => {
    const chapters = describeOf(Chapter);
    expect(chapters.write.create).toMatchObject({ required: ['title'], requiredOneOf: [['volume', 'volumeId']] });
    expect(chapters.write.update).toMatchObject({ required: ['title'], requiredOneOf: [['volume', 'volumeId']] });
    expect(chapters.write.patch).toMatchObject({ required: [], requiredOneOf: [] });
    const leaves = describeOf(Leaf);
    expect(leaves.write.create).toMatchObject({ required: ['text', 'volume'], requiredOneOf: [] });
    expect(leaves.write.patch).toMatchObject({ required: [], requiredOneOf: [] });
  });

  it('asks for the reference before any SQL runs, naming what the client may send', async () => {
    const sent = await counter.during(async () => {
      const pair = await request(t.server).post('/chapters').send({ title: 'A' }).expect(400);
      expect(pair.body).toMatchObject({
        code: 'SVC_VALIDATION_FAILED',
        errors: [
          { field: 'volume', code: 'required', detail: "'volume' or 'volumeId' is required: send one of them." },
        ],
      });
      const bare = await request(t.server).post('/leaves').send({ text: 'A' }).expect(400);
      expect(bare.body.errors).toEqual([{ field: 'volume', code: 'required', detail: "'volume' is required." }]);
    });
    expect(sent).toBe(0);
  });

  it('takes the reference either way on create and on the replace of update, never both, and patches without it', async () => {
    const byColumn = await request(t.server).post('/chapters').send({ title: 'A', volumeId }).expect(201);
    const byReference = await request(t.server)
      .post('/chapters')
      .send({ title: 'B', volume: { id: volumeId } })
      .expect(201);
    expect([byColumn.body.volumeId, byReference.body.volumeId]).toEqual([volumeId, volumeId]);
    const both = await request(t.server)
      .post('/chapters')
      .send({ title: 'C', volumeId, volume: { id: volumeId } })
      .expect(400);
    expect(both.body.errors).toEqual([expect.objectContaining({ code: 'conflict' })]);
    const replaced = await request(t.server).put(`/chapters/${byColumn.body.id}`).send({ title: 'A2' }).expect(400);
    expect(replaced.body.errors).toEqual([expect.objectContaining({ field: 'volume', code: 'required' })]);
    await request(t.server).put(`/chapters/${byColumn.body.id}`).send({ title: 'A2', volumeId }).expect(200);
    await request(t.server).patch(`/chapters/${byColumn.body.id}`).send({ title: 'A3' }).expect(200);
    const leaf = await request(t.server)
      .post('/leaves')
      .send({ text: 'L', volume: { id: volumeId } })
      .expect(201);
    await request(t.server).patch(`/leaves/${leaf.body.id}`).send({ text: 'L2' }).expect(200);
  });

  it('lets set fill the reference through its column', async () => {
    const created = await request(t.server).post('/filed').send({ title: 'Filed' }).expect(201);
    expect(created.body.volumeId).toBe(volumeId);
  });

  it('says the same in the OpenAPI body schema and the agent tools’ data schema', () => {
    const ajv = createAjv();
    const chapters = describeOf(Chapter);
    const leaves = describeOf(Leaf);
    for (const schema of [chapters.schemas['ChapterCreate']!, dataOf(chapters, 'createOne')]) {
      const valid = ajv.compile(schema as Record<string, unknown>);
      expect(valid({ title: 'A' })).toBe(false);
      expect(valid({ title: 'A', volumeId: 1 })).toBe(true);
      expect(valid({ title: 'A', volume: { id: 1 } })).toBe(true);
      expect(valid({ title: 'A', volumeId: 1, volume: { id: 1 } })).toBe(false);
    }
    for (const schema of [chapters.schemas['ChapterPatch']!, dataOf(chapters, 'patchOne')]) {
      const valid = ajv.compile(schema as Record<string, unknown>);
      expect(valid({ title: 'A' })).toBe(true);
      expect(valid({ volumeId: 1, volume: { id: 1 } })).toBe(false);
    }
    for (const schema of [leaves.schemas['LeafCreate']!, dataOf(leaves, 'createOne')]) {
      const valid = ajv.compile(schema as Record<string, unknown>);
      expect(valid({ text: 'A' })).toBe(false);
      expect(valid({ text: 'A', volume: { id: 1 } })).toBe(true);
    }
  });
});

/** The `data` argument of an operation's agent tool. */
function dataOf(description: EntityDescription, operation: string): Record<string, unknown> {
  const described = description.operations.find((candidate) => candidate.id === operation)!;
  return (inputSchemaOf(description, described)['properties'] as Record<string, Record<string, unknown>>)['data']!;
}
