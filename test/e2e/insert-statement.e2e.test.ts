/**
 * A create's INSERT, written by the adapter where the database returns inserted rows (PostgreSQL, SQLite, MariaDB
 * 10.5+), stores what TypeORM's InsertQueryBuilder stores from the same values: defaults for what a body leaves out,
 * the version column at 1, transformers applied, a to-one relation without a mapped key property in its join column,
 * every kind of value bound. An app with TypeORM subscribers keeps the builders, so they still hear each insert and
 * update (on SQLite, where the builders write no RETURNING, the row is then read back).
 */
import { Controller } from '@nestjs/common';
import { Svc } from '@svc/nestjs';
import request from 'supertest';
import {
  Column,
  CreateDateColumn,
  Entity,
  EventSubscriber,
  Generated,
  ManyToOne,
  PrimaryGeneratedColumn,
  VersionColumn,
  type EntitySubscriberInterface,
  type InsertEvent,
  type DataSourceOptions,
  type UpdateEvent,
} from 'typeorm';
import { createTestApp, type TestApp } from '../support/create-test-app';
import { StatementCounter } from '../support/statement-counter';
import { TEST_DATABASES, type TestDatabase } from '../support/test-databases';

@Entity('insert_maker')
class Maker {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 60 }) name!: string;
}

const shout = {
  to: (value: unknown) => (typeof value === 'string' ? value.toUpperCase() : value),
  from: (v: unknown) => v,
};

@Entity('insert_gadget')
class Gadget {
  @PrimaryGeneratedColumn('uuid') id!: string;
  @Column({ type: 'varchar', length: 60 }) name!: string;
  @Column({ type: 'int', default: 7 }) stock!: number;
  @Column({ type: 'float', nullable: true }) weight!: number | null;
  @Column({ type: 'boolean', default: true }) active!: boolean;
  @Column({ type: 'varchar', length: 60, nullable: true, transformer: shout }) code!: string | null;
  @Column({ type: 'simple-enum', enum: ['low', 'high'], default: 'low' }) level!: 'low' | 'high';
  @Column({ type: 'simple-json', nullable: true }) data!: Record<string, unknown> | null;
  @Column({ type: 'date', nullable: true }) due!: string | null;
  /** Not the key: filled as TypeORM's builder fills it where the database makes no uuid (all but PostgreSQL). */
  @Column()
  @Generated('uuid')
  ref!: string;
  @VersionColumn() revision!: number;
  @CreateDateColumn() createdAt!: Date;
  /** No mapped key property: the relation alone writes its join column (`makerId`). */
  @ManyToOne(() => Maker, { nullable: true, onDelete: 'SET NULL' }) maker!: Maker | null;
}

@Svc(Gadget, {
  schema: { input: { create: ['name', 'stock', 'weight', 'active', 'code', 'level', 'data', 'due', 'maker'] } },
})
@Controller('gadgets')
class GadgetsController {}

@Svc(Maker)
@Controller('makers')
class MakersController {}

/** Heard inserts, by the name of the gadget; it also stamps a code on a gadget given none. */
@EventSubscriber()
class GadgetSubscriber implements EntitySubscriberInterface<Gadget> {
  static heard: string[] = [];
  listenTo() {
    return Gadget;
  }
  beforeInsert(event: InsertEvent<Gadget>): void {
    GadgetSubscriber.heard.push(event.entity.name);
    if (event.entity.code === undefined) event.entity.code = 'STAMPED';
  }
  beforeUpdate(event: UpdateEvent<Gadget>): void {
    GadgetSubscriber.heard.push(`update ${JSON.stringify(event.entity)}`);
  }
}

/** The gadgets and makers app on `db`, with extra DataSource options (a statement counter, subscribers). */
const gadgetApp = (db: TestDatabase, suite: string, dataSource: Partial<DataSourceOptions>) =>
  createTestApp({
    db,
    suite,
    entities: [Maker, Gadget],
    dataSource,
    controllers: [GadgetsController, MakersController],
  });

/** The columns a comparison reads: all but the key and the creation time, which differ between any two inserts. */
const COMPARED = ['name', 'stock', 'weight', 'active', 'code', 'level', 'data', 'due', 'revision', 'maker'];

describe.each(TEST_DATABASES)('The INSERT of a create on $name', (db) => {
  let t: TestApp;
  const counter = new StatementCounter();
  let makerId: number;

  beforeAll(async () => {
    t = await gadgetApp(db, 'e2e_insert_statement', { logger: counter, logging: true });
    makerId = (await t.dataSource.getRepository(Maker).save({ name: 'Acme' })).id;
  });

  afterAll(async () => {
    await t?.close();
  });

  /** The stored row of a gadget, read by TypeORM, its relation as the maker's id. */
  async function stored(id: string): Promise<Record<string, unknown>> {
    const gadget = await t.dataSource
      .getRepository(Gadget)
      .findOneOrFail({ where: { id }, relations: { maker: true } });
    const row: Record<string, unknown> = { ...gadget, maker: gadget.maker?.id ?? null };
    return Object.fromEntries(COMPARED.map((name) => [name, row[name]]));
  }

  /** Creates the gadget over HTTP and through TypeORM's builder; both stored rows. */
  async function bothWays(body: Record<string, unknown>, builderValues: Record<string, unknown>) {
    const before = counter.roundTrips;
    const response = await request(t.server).post('/gadgets').send(body);
    expect(response.status).toBe(201);
    const statements = counter.roundTrips - before;
    const built = await t.dataSource.getRepository(Gadget).insert(builderValues as never);
    const builtId = (built.identifiers[0] as { id: string }).id;
    return {
      statements,
      response: response.body as Record<string, unknown>,
      ours: await stored(response.body.id),
      builder: await stored(builtId),
    };
  }

  it('stores a full body as the builder does, in one statement, and answers the stored row', async () => {
    const body = {
      name: 'Full',
      stock: 3,
      weight: 1.25,
      active: false,
      code: 'abc',
      level: 'high',
      data: { a: [1, 'two'], b: null },
      due: '2026-12-24',
      maker: { id: makerId },
    };
    const { statements, response, ours, builder } = await bothWays(body, { ...body, maker: { id: makerId } });
    expect(statements).toBe(1);
    expect(ours).toEqual(builder);
    expect(ours).toMatchObject({ code: 'ABC', revision: 1, maker: makerId, stock: 3, active: false });
    expect(response).toMatchObject({ name: 'Full', code: 'ABC', revision: 1, level: 'high', due: '2026-12-24' });
    expect(typeof response['createdAt']).toBe('string');
  });

  it('leaves what a body omits to the column defaults, as the builder does', async () => {
    const { ours, builder, response } = await bothWays({ name: 'Bare' }, { name: 'Bare' });
    expect(ours).toEqual(builder);
    expect(ours).toEqual({
      name: 'Bare',
      stock: 7,
      weight: null,
      active: true,
      code: null,
      level: 'low',
      data: null,
      due: null,
      revision: 1,
      maker: null,
    });
    expect(response).toMatchObject({ stock: 7, active: true, level: 'low', revision: 1 });
  });

  it('gives a generated uuid column that is not the key a uuid of its own', async () => {
    const first = await request(t.server).post('/gadgets').send({ name: 'Ref one' });
    const second = await request(t.server).post('/gadgets').send({ name: 'Ref two' });
    expect([first.status, second.status]).toEqual([201, 201]);
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
    expect(first.body.ref).toMatch(uuid);
    expect(second.body.ref).toMatch(uuid);
    expect(first.body.ref).not.toBe(second.body.ref);
    const stored = await t.dataSource.getRepository(Gadget).findOneByOrFail({ id: first.body.id });
    expect(stored.ref).toBe(first.body.ref);
  });

  it('stores explicit nulls and a relation set to null as the builder does', async () => {
    const body = { name: 'Nulls', weight: null, code: null, data: null, due: null, maker: null };
    const { ours, builder } = await bothWays(body, body);
    expect(ours).toEqual(builder);
  });

  it('binds every value: a name that reads as SQL is stored as written', async () => {
    const name = `x'); DROP TABLE "insert_gadget"; --`;
    const { ours } = await bothWays({ name, code: `o'brien` }, { name, code: `o'brien` });
    expect(ours).toMatchObject({ name, code: `O'BRIEN` });
  });
});

describe.each(TEST_DATABASES)('The INSERT of a create with TypeORM subscribers on $name', (db) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await gadgetApp(db, 'e2e_insert_subscribers', { subscribers: [GadgetSubscriber] });
  });

  afterAll(async () => {
    await t?.close();
  });

  it('runs through the builder, so a subscriber hears the insert and its change is stored', async () => {
    GadgetSubscriber.heard = [];
    const response = await request(t.server).post('/gadgets').send({ name: 'Heard' });
    expect(response.status).toBe(201);
    expect(GadgetSubscriber.heard).toEqual(['Heard']);
    expect(response.body).toMatchObject({ name: 'Heard', code: 'STAMPED' });
  });

  it('runs an update through the builder too, so a subscriber hears it, and answers the stored row', async () => {
    const created = await request(t.server).post('/gadgets').send({ name: 'Patched' });
    GadgetSubscriber.heard = [];
    const response = await request(t.server).patch(`/gadgets/${created.body.id}`).send({ stock: 9 });
    expect(response.status).toBe(200);
    expect(GadgetSubscriber.heard).toEqual([expect.stringContaining('"stock":9')]);
    expect(response.body).toMatchObject({ name: 'Patched', stock: 9, revision: 2 });
  });
});
