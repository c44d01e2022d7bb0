/**
 * Bigint and decimal columns at the edges of what they hold, on every database: a value past a bigint's signed 64-bit
 * range, or with more digits than a decimal(12,2) keeps, is a 400 naming the field and the limit on every write path
 * (create, replace, patch, JSON Patch, batch items), refused before any write; a value inside the range is stored and
 * read back exactly (rows, written rows, included rows, sort order, min, max, and a sum past 2^63).
 */
import request from 'supertest';
import { Column, Entity, JoinTable, ManyToMany, PrimaryGeneratedColumn } from 'typeorm';
import { createTestApp, svcController, type TestApp } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { expectProblem, type Item, type Problem } from './support/e2e-http';

@Entity('nr_label')
class NrLabel {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) name!: string;
  @Column({ type: 'bigint', nullable: true }) weight!: string | number | null;
}

@Entity('nr_account')
class NrAccount {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 20 }) team!: string;
  @Column({ type: 'decimal', precision: 12, scale: 2, nullable: true }) monthlyLimit!: string | number | null;
  @Column({ type: 'bigint', nullable: true }) big!: string | number | null;
  /** No precision declared: MySQL and MariaDB keep decimal(10,0); PostgreSQL (numeric) and SQLite any digits. */
  @Column({ type: 'decimal', nullable: true }) loose!: string | number | null;
  @ManyToMany(() => NrLabel) @JoinTable({ name: 'nr_account_labels' }) labels!: NrLabel[];
}

const INT64_MAX = '9223372036854775807';
const INT64_MIN = '-9223372036854775808';
/** 2^53 + 1: the first integer a JavaScript number cannot hold. */
const PAST_2_53 = '9007199254740993';
const PATCH_TYPE = 'application/json-patch+json';

/** A bigint as every database now answers it: a number while one holds it exactly, else its digits. */
const bigintOf = (value: unknown) => (typeof value === 'number' ? String(value) : value);
/** A decimal as every database answers it (a string, or a number on SQLite), by value. */
const decimalOf = (value: unknown) => (value === null ? null : Number(value).toFixed(2));

describe.each(TEST_DATABASES)('Bigint and decimal ranges on $name', (db) => {
  let t: TestApp;
  const server = () => request(t.server);

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: 'e2e_numeric_ranges',
      entities: [NrLabel, NrAccount],
      controllers: [
        svcController('accounts', NrAccount, {
          filter: { fields: ['team', 'big', 'monthlyLimit'] },
          sort: { fields: ['id', 'big', 'monthlyLimit'] },
          include: { fields: ['labels'] },
          relations: { labels: { write: { strategy: 'jsonPatch' } } },
          batch: { create: true, update: true },
          aggregate: { groupBy: ['team', 'big'] },
        }),
        svcController('labels', NrLabel, {}),
      ],
    });
  });

  afterAll(async () => {
    await t?.close();
  });

  const accounts = () => t.dataSource.getRepository(NrAccount);
  const create = async (body: Item) => {
    const res = await server().post('/accounts').send(body);
    expect(res.status).toBe(201);
    return res.body as Item;
  };
  /** The 400's errors[] entries, by field and code, with the detail checked apart. */
  const refused = (res: request.Response): Problem => {
    const problem = expectProblem(res, 400, 'SVC_VALIDATION_FAILED');
    expect(problem.errors?.length).toBe(1);
    return problem;
  };
  const stored = async (id: unknown) => accounts().findOneByOrFail({ id: Number(id) });

  describe('a bigint column', () => {
    const outOfRange = (problem: Problem, field: string) =>
      expect(problem.errors).toEqual([
        {
          field,
          code: 'out_of_range',
          detail: expect.stringMatching(new RegExp(`${INT64_MIN}.*${INT64_MAX}.*send a value in that range`)),
        },
      ]);

    it('refuses a create past the signed 64-bit range, naming the field and the range, and writes nothing', async () => {
      const before = await accounts().count();
      for (const big of ['9999999999999999999', '9223372036854775808', '-9223372036854775809', '1'.repeat(40)]) {
        const problem = refused(await server().post('/accounts').send({ team: 'refused', big }));
        outOfRange(problem, 'big');
      }
      expect(await accounts().count()).toBe(before);
    });

    it('refuses a replace, a patch and a JSON Patch past the range, leaving the row as it was', async () => {
      const { id } = await create({ team: 'edits', big: '7' });
      const big = '9999999999999999999';
      outOfRange(refused(await server().put(`/accounts/${id}`).send({ team: 'edits', big })), 'big');
      outOfRange(refused(await server().patch(`/accounts/${id}`).send({ big })), 'big');
      const document = [{ op: 'replace', path: '/big', value: big }];
      const patched = await server().patch(`/accounts/${id}`).set('Content-Type', PATCH_TYPE).send(document);
      outOfRange(refused(patched), 'big');
      expect(bigintOf((await stored(id)).big)).toBe('7');
    });

    it('refuses a batch item past the range, naming the item, and an updateMany body, writing nothing', async () => {
      const before = await accounts().count();
      const res = await server()
        .post('/accounts/batch')
        .send([
          { team: 'batch', big: '1' },
          { team: 'batch', big: '9999999999999999999' },
        ]);
      outOfRange(refused(res), '[1].big');
      expect(await accounts().count()).toBe(before);
      await create({ team: 'batch-update', big: '5' });
      const updated = await server()
        .patch('/accounts?filter[team][eq]=batch-update')
        .send({ big: INT64_MIN + '0' });
      outOfRange(refused(updated), 'big');
      expect((await accounts().findBy({ team: 'batch-update' })).map((row) => bigintOf(row.big))).toEqual(['5']);
    });

    it('stores the ends of the range and values past 2^53, and answers them exactly', async () => {
      const values = [INT64_MAX, INT64_MIN, PAST_2_53, `-${PAST_2_53}`, '12'];
      const created = [];
      for (const big of values) {
        const row = await create({ team: 'exact', big });
        expect(bigintOf(row['big'])).toBe(big);
        created.push(row);
      }
      // A number only where it is exact: the digits past 2^53.
      for (const row of created.slice(0, 4)) expect(typeof row['big']).toBe('string');
      const read = await server().get(`/accounts/${created[0]!['id']}`).expect(200);
      expect(read.body.big).toBe(INT64_MAX);
      const patched = await server().patch(`/accounts/${created[4]!['id']}`).send({ big: PAST_2_53 }).expect(200);
      expect(patched.body.big).toBe(PAST_2_53);
      const batch = await server()
        .post('/accounts/batch')
        .send([{ team: 'exact-batch', big: INT64_MAX }])
        .expect(201);
      expect(batch.body.items[0].big).toBe(INT64_MAX);
      await server().patch(`/accounts/${created[4]!['id']}`).send({ big: '12' }).expect(200);
    });

    it('sorts and filters by the exact value, past 2^53 on both sides', async () => {
      const res = await server().get('/accounts?filter[team][eq]=exact&sort=big').expect(200);
      expect(res.body.items.map((row: Item) => bigintOf(row['big']))).toEqual([
        INT64_MIN,
        `-${PAST_2_53}`,
        '12',
        PAST_2_53,
        INT64_MAX,
      ]);
      const desc = await server().get('/accounts?filter[team][eq]=exact&sort=-big').expect(200);
      expect(desc.body.items.map((row: Item) => bigintOf(row['big']))).toEqual([
        INT64_MAX,
        PAST_2_53,
        '12',
        `-${PAST_2_53}`,
        INT64_MIN,
      ]);
      const one = await server().get(`/accounts?filter[big][eq]=${PAST_2_53}`).expect(200);
      expect(one.body.items.map((row: Item) => row['big'])).toEqual([PAST_2_53]);
      const refusedFilter = await server().get('/accounts?filter[big][eq]=9999999999999999999');
      expect(expectProblem(refusedFilter, 400, 'SVC_QUERY_INVALID').errors?.[0]?.param).toBe('filter[big][eq]');
    });

    it('answers min, max and a sum past 2^63 exactly, and orders groups by that sum', async () => {
      await create({ team: 'sum-a', big: INT64_MAX });
      await create({ team: 'sum-a', big: INT64_MAX });
      await create({ team: 'sum-a', big: '-1' });
      await create({ team: 'sum-b', big: INT64_MIN });
      await create({ team: 'sum-b', big: INT64_MIN });
      await create({ team: 'sum-c', big: INT64_MAX });
      await create({ team: 'sum-c', big: '3' });
      const res = await server()
        .get('/accounts/aggregate?filter[team][startsWith]=sum-&groupBy=team&sum=big&min=big&max=big&sort=-sum.big')
        .expect(200);
      const items = (res.body.items as Item[]).map((item) => ({
        ...item,
        min: { big: bigintOf((item['min'] as Item)['big']) },
        max: { big: bigintOf((item['max'] as Item)['big']) },
      }));
      expect(items).toEqual([
        {
          group: { team: 'sum-a' },
          count: 3,
          sum: { big: '18446744073709551613' },
          min: { big: '-1' },
          max: { big: INT64_MAX },
        },
        {
          group: { team: 'sum-c' },
          count: 2,
          sum: { big: '9223372036854775810' },
          min: { big: '3' },
          max: { big: INT64_MAX },
        },
        {
          group: { team: 'sum-b' },
          count: 2,
          sum: { big: '-18446744073709551616' },
          min: { big: INT64_MIN },
          max: { big: INT64_MIN },
        },
      ]);
      // Where a JavaScript number would lose digits, the answer is the digits.
      expect((res.body.items as Item[]).map((item) => (item['max'] as Item)['big'])).toEqual([
        INT64_MAX,
        INT64_MAX,
        INT64_MIN,
      ]);
    });

    it('groups by the exact value past 2^53', async () => {
      const res = await server().get(`/accounts/aggregate?filter[team][eq]=exact&groupBy=big&sort=-big`).expect(200);
      expect((res.body.items as Item[]).map((item) => bigintOf((item['group'] as Item)['big']))).toEqual([
        INT64_MAX,
        PAST_2_53,
        '12',
        `-${PAST_2_53}`,
        INT64_MIN,
      ]);
    });

    it('reads an included row past 2^53 exactly', async () => {
      const label = await t.dataSource.getRepository(NrLabel).save({ name: 'heavy', weight: PAST_2_53 });
      const { id } = await create({ team: 'included' });
      await t.dataSource.createQueryBuilder().relation(NrAccount, 'labels').of(id).add(label.id);
      const res = await server().get(`/accounts/${id}?include=labels`).expect(200);
      expect(res.body.labels).toEqual([{ id: label.id, name: 'heavy', weight: PAST_2_53 }]);
    });
  });

  describe('a decimal(12,2) column', () => {
    const tooPrecise = (problem: Problem, field: string) =>
      expect(problem.errors).toEqual([
        {
          field,
          code: 'out_of_range',
          detail: expect.stringMatching(/decimal\(12,2\).*keeps 2.*round it to 2 decimal places/),
        },
      ]);
    const tooLarge = (problem: Problem, field: string) =>
      expect(problem.errors).toEqual([
        {
          field,
          code: 'out_of_range',
          detail: expect.stringMatching(/decimal\(12,2\).*10 digits before the point.*9999999999\.99.*smaller value/),
        },
      ]);

    it('refuses more digits after the point than the scale, as text or as a number, and writes nothing', async () => {
      const before = await accounts().count();
      for (const monthlyLimit of ['12.345', 12.345, '-0.001', 0.1 + 0.2]) {
        tooPrecise(refused(await server().post('/accounts').send({ team: 'refused', monthlyLimit })), 'monthlyLimit');
      }
      expect(await accounts().count()).toBe(before);
    });

    it('refuses more digits before the point than the precision leaves, naming the field', async () => {
      for (const monthlyLimit of ['12345678901', '-10000000000.5', 1e21]) {
        tooLarge(refused(await server().post('/accounts').send({ team: 'refused', monthlyLimit })), 'monthlyLimit');
      }
    });

    it('stores what fits, trailing zeros and all, and answers it by value', async () => {
      for (const monthlyLimit of ['9999999999.99', '-9999999999.99', '12.340', '0012.3', 12.5, '0.10']) {
        const row = await create({ team: 'decimal', monthlyLimit });
        expect(decimalOf(row['monthlyLimit'])).toBe(Number(monthlyLimit).toFixed(2));
        expect(decimalOf((await stored(row['id'])).monthlyLimit)).toBe(Number(monthlyLimit).toFixed(2));
      }
    });

    it('refuses a replace, a patch and a JSON Patch that does not fit, leaving the row as it was', async () => {
      const { id } = await create({ team: 'decimal-edits', monthlyLimit: '1.00' });
      tooPrecise(
        refused(await server().put(`/accounts/${id}`).send({ team: 'decimal-edits', monthlyLimit: '12.345' })),
        'monthlyLimit',
      );
      tooLarge(refused(await server().patch(`/accounts/${id}`).send({ monthlyLimit: '12345678901' })), 'monthlyLimit');
      tooPrecise(refused(await server().patch(`/accounts/${id}`).send({ monthlyLimit: 0.005 })), 'monthlyLimit');
      const document = [{ op: 'replace', path: '/monthlyLimit', value: '12.345' }];
      const patched = await server().patch(`/accounts/${id}`).set('Content-Type', PATCH_TYPE).send(document);
      tooPrecise(refused(patched), 'monthlyLimit');
      expect(decimalOf((await stored(id)).monthlyLimit)).toBe('1.00');
    });

    it('holds an undeclared precision to what the database keeps: decimal(10,0) on MySQL and MariaDB', async () => {
      const res = await server().post('/accounts').send({ team: 'loose', loose: '12.5' });
      if (db.name !== 'mysql') {
        expect(res.status).toBe(201);
        expect(Number(res.body.loose)).toBe(12.5);
        return;
      }
      expect(refused(res).errors).toEqual([
        {
          field: 'loose',
          code: 'out_of_range',
          detail: expect.stringMatching(/decimal\(10,0\).*round it to 0 decimal places/),
        },
      ]);
      expect(Number((await create({ team: 'loose', loose: '9999999999' }))['loose'])).toBe(9999999999);
    });

    it('names the item of a batch, and an updateMany body, writing nothing', async () => {
      const before = await accounts().count();
      const res = await server()
        .post('/accounts/batch')
        .send([
          { team: 'decimal-batch', monthlyLimit: '1.50' },
          { team: 'decimal-batch', monthlyLimit: '12.345' },
          { team: 'decimal-batch', monthlyLimit: '12345678901' },
        ]);
      const problem = expectProblem(res, 400, 'SVC_VALIDATION_FAILED');
      expect(problem.errors?.map(({ field, code }) => ({ field, code }))).toEqual([
        { field: '[1].monthlyLimit', code: 'out_of_range' },
        { field: '[2].monthlyLimit', code: 'out_of_range' },
      ]);
      expect(await accounts().count()).toBe(before);
      await create({ team: 'decimal-many', monthlyLimit: '2.00' });
      const updated = await server().patch('/accounts?filter[team][eq]=decimal-many').send({ monthlyLimit: '2.001' });
      tooPrecise(refused(updated), 'monthlyLimit');
      const rows = await accounts().findBy({ team: 'decimal-many' });
      expect(rows.map((row) => decimalOf(row.monthlyLimit))).toEqual(['2.00']);
    });
  });
});
