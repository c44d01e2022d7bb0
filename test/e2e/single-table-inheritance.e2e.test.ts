/**
 * A child entity of single-table inheritance shares its table with its siblings; its endpoint reads its own rows
 * only, as TypeORM's builders do: a list, a read by id, a count, an include of it from another entity and a filter
 * through a relation to it. It writes its own kind only: a create, a patch and its batches neither take the
 * discriminator from the client nor reach a sibling's rows. And an include naming more related rows than one statement may bind (SQLite's 32,766
 * variables) reads them in parts.
 */
import { Controller } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import request from 'supertest';
import {
  ChildEntity,
  Column,
  Entity,
  JoinTable,
  ManyToMany,
  ManyToOne,
  OneToMany,
  PrimaryGeneratedColumn,
  TableInheritance,
} from 'typeorm';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';

@Entity('sti_keeper')
class Keeper {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) name!: string;
  @OneToMany(() => Cat, (cat) => cat.keeper) cats!: Cat[];
  @ManyToOne(() => Cat, { nullable: true }) favourite!: Cat | null;
  @Column({ type: 'int', nullable: true }) favouriteId!: number | null;
}

@Entity('sti_animal')
@TableInheritance({ column: { type: 'varchar', length: 10, name: 'kind' } })
class Animal {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) name!: string;
  @Column({ type: 'varchar', length: 20, nullable: true, unique: true }) tag!: string | null;
  @Column({ type: 'int', nullable: true }) keeperId!: number | null;
  @ManyToOne(() => Keeper, { nullable: true }) keeper!: Keeper | null;
}

@ChildEntity('cat')
class Cat extends Animal {
  @Column({ type: 'int', nullable: true }) lives!: number | null;
}

@ChildEntity('dog')
class Dog extends Animal {
  @Column({ type: 'varchar', length: 40, nullable: true }) breed!: string | null;
}

@Svc(Cat, { batch: { create: { onConflict: { target: ['tag'], update: 'all' } }, update: true, delete: true } })
@Controller('cats')
class CatsController {}

@Svc(Keeper, { include: { fields: ['cats', 'favourite'] }, filter: { fields: ['name', 'cats.name'] } })
@Controller('keepers')
class KeepersController {}

describe.each(TEST_DATABASES)('A child entity of single-table inheritance on $name', (db) => {
  let t: TestApp;
  let keeperId: number;
  let dogId: number;
  let catIds: number[];

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_single_table_inheritance',
      entities: [Keeper, Animal, Cat, Dog],
      controllers: [CatsController, KeepersController],
    });
    const keeper = await t.dataSource.getRepository(Keeper).save({ name: 'Ada' });
    keeperId = keeper.id;
    const cats = await t.dataSource.getRepository(Cat).save([
      { name: 'Tom', lives: 9, keeperId },
      { name: 'Felix', lives: 7, keeperId },
    ]);
    catIds = cats.map((cat) => cat.id);
    dogId = (await t.dataSource.getRepository(Dog).save({ name: 'Rex', breed: 'collie', keeperId, tag: 'rex' })).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  it('lists and counts its own rows only', async () => {
    const response = await request(t.server).get('/cats?sort=id');
    expect(response.status).toBe(200);
    expect(response.body.items.map((cat: { name: string }) => cat.name)).toEqual(['Tom', 'Felix']);
    expect(response.body.total).toBe(2);
  });

  it('answers 404 for the id of a sibling row', async () => {
    expect((await request(t.server).get(`/cats/${catIds[0]}`)).status).toBe(200);
    const response = await request(t.server).get(`/cats/${dogId}`);
    expect(response.status).toBe(404);
    expect(response.body.code).toBe('SVC_NOT_FOUND');
  });

  it('includes its own rows only, to many and to one', async () => {
    await t.dataSource.getRepository(Keeper).update(keeperId, { favouriteId: dogId });
    const response = await request(t.server).get(`/keepers/${keeperId}?include=cats,favourite`);
    expect(response.status).toBe(200);
    expect(response.body.cats.map((cat: { name: string }) => cat.name)).toEqual(['Tom', 'Felix']);
    // The keeper's favourite is a dog: as a cat, there is none.
    expect(response.body.favourite).toBeNull();
  });

  it('writes its own kind: the discriminator is neither required nor taken from a create or a patch', async () => {
    const created = await request(t.server).post('/cats').send({ name: 'Puss' });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'Puss', kind: 'cat' });
    const disguised = await request(t.server).post('/cats').send({ name: 'Odie', kind: 'dog' });
    expect(disguised.status).toBe(201);
    expect(disguised.body.kind).toBe('cat');
    const patched = await request(t.server).patch(`/cats/${created.body.id}`).send({ kind: 'dog', lives: 8 });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ kind: 'cat', lives: 8 });
    const stored = await t.dataSource
      .getRepository(Animal)
      .find({ where: [created.body, disguised.body].map(({ id }) => ({ id })) });
    expect(stored.every((animal) => animal instanceof Cat)).toBe(true);
    await request(t.server).delete(`/cats/${created.body.id}`).expect(204);
    await request(t.server).delete(`/cats/${disguised.body.id}`).expect(204);
  });

  it('writes batches to its own rows only: created as its kind, a filter matching a sibling changes nothing', async () => {
    const dog = () => t.dataSource.getRepository(Dog).findOneByOrFail({ id: dogId });
    const created = await request(t.server)
      .post('/cats/batch')
      .send([{ name: 'Rex' }, { name: 'Kit', tag: 'kit' }]);
    expect(created.status).toBe(201);
    const ids = created.body.items.map((cat: { id: number }) => cat.id);
    const kinds = await t.dataSource.getRepository(Animal).find({ where: ids.map((id: number) => ({ id })) });
    expect(kinds.every((animal) => animal instanceof Cat)).toBe(true);
    // Rex is a dog's name too: only the new cat of that name is patched, then deleted.
    const patched = await request(t.server).patch('/cats?filter[name][eq]=Rex').send({ lives: 3 });
    expect(patched.status).toBe(200);
    expect(patched.body.items.map((cat: { id: number }) => cat.id)).toEqual([ids[0]]);
    const deleted = await request(t.server).delete('/cats?filter[name][eq]=Rex');
    expect(deleted.status).toBe(200);
    expect(deleted.body.items).toEqual([{ id: ids[0] }]);
    expect(await dog()).toMatchObject({ name: 'Rex', breed: 'collie', tag: 'rex' });
    // An upsert matches its own kind's rows only: the dog's tag is no cat's, so the item is a new row, and the unique
    // index refuses it; the dog is not touched.
    const upsert = await request(t.server)
      .post('/cats/batch')
      .send([
        { name: 'Kit again', tag: 'kit' },
        { name: 'Not a dog', tag: 'rex' },
      ]);
    expect(upsert.status).toBe(409);
    expect(await dog()).toMatchObject({ name: 'Rex', tag: 'rex' });
    expect((await request(t.server).get(`/cats/${ids[1]}`)).body.name).toBe('Kit');
    const matched = await request(t.server)
      .post('/cats/batch')
      .send([{ name: 'Kit again', tag: 'kit' }]);
    expect(matched.status).toBe(200);
    expect(matched.body.meta).toEqual({ created: 0, updated: 1 });
    await request(t.server).delete('/cats?filter[tag][eq]=kit').expect(200);
  });

  it('filters through a relation to its own rows only', async () => {
    const named = async (name: string) =>
      (await request(t.server).get(`/keepers?filter[cats.name][eq]=${name}`).expect(200)).body.items.map(
        (keeper: { name: string }) => keeper.name,
      );
    expect(await named('Tom')).toEqual(['Ada']);
    // Rex is the keeper's dog, in the same table: no cat of hers has that name.
    expect(await named('Rex')).toEqual([]);
  });
});

@Entity('large_include_label')
class Label {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) text!: string;
}

@Entity('large_include_box')
class Box {
  @PrimaryGeneratedColumn() id!: number;
  @ManyToMany(() => Label) @JoinTable({ name: 'large_include_box_label' }) labels!: Label[];
}

@Svc(Box, { include: { fields: ['labels'] } })
@Controller('boxes')
class BoxesController {}

/** More than SQLite binds in one statement (32,766). */
const LABELS = 33_000;

describe('An include of more related rows than one statement binds, on SQLite', () => {
  const sqlite = TEST_DATABASES.find((db) => db.name === 'sqlite')!;
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({
      db: sqlite,
      suite: 'e2e_large_include',
      entities: [Label, Box],
      controllers: [BoxesController],
    });
    await t.dataSource.transaction(async (manager) => {
      await manager.query('INSERT INTO "large_include_box" ("id") VALUES (1)');
      for (let start = 1; start <= LABELS; start += 500) {
        const ids = Array.from({ length: Math.min(500, LABELS - start + 1) }, (_, index) => start + index);
        await manager.query(
          `INSERT INTO "large_include_label" ("id", "text") VALUES ${ids.map((id) => `(${id}, 'l${id}')`).join(', ')}`,
        );
        await manager.query(
          `INSERT INTO "large_include_box_label" ("largeIncludeBoxId", "largeIncludeLabelId") VALUES ${ids
            .map((id) => `(1, ${id})`)
            .join(', ')}`,
        );
      }
    });
  }, 60_000);

  afterAll(async () => {
    await t?.close();
  });

  it('answers every related row', async () => {
    const response = await request(t.server).get('/boxes/1?include=labels');
    expect(response.status).toBe(200);
    expect(response.body.labels).toHaveLength(LABELS);
    expect(response.body.labels[LABELS - 1]).toEqual({ id: LABELS, text: `l${LABELS}` });
  }, 60_000);
});
