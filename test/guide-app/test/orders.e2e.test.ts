/** Each shop's orders over REST, with two shops' callers: each reaches its own orders and never the other's. */
import type { INestApplication } from '@nestjs/common';
import request from 'supertest';
import { DataSource, type Repository } from 'typeorm';
import { Order } from '../src/order.entity';
import { expectProblem } from './expect-problem';
import { bearer, startApp } from './test-app';

describe('orders, scoped per shop', () => {
  let app: INestApplication;
  let orders: Repository<Order>;
  let northOrder: Order;
  const north = bearer('reader', { tenant: 'north' });
  const south = bearer('reader', { tenant: 'south' });

  beforeAll(async () => {
    app = await startApp('orders_e2e');
    orders = app.get(DataSource).getRepository(Order);
  });

  afterAll(async () => {
    await app?.close();
  });

  beforeEach(async () => {
    await orders.clear();
    [northOrder] = await orders.save([
      { tenant: 'north', title: 'Dune', quantity: 2 },
      { tenant: 'south', title: 'Solaris', quantity: 1 },
    ]);
  });

  it("lists each caller's own shop's orders only, from the same URL", async () => {
    const server = app.getHttpServer();
    const forNorth = await request(server).get('/orders').set(north).expect(200);
    expect(forNorth.body).toMatchObject({ total: 1, items: [{ tenant: 'north', title: 'Dune' }] });
    const forSouth = await request(server).get('/orders').set(south).expect(200);
    expect(forSouth.body).toMatchObject({ total: 1, items: [{ tenant: 'south', title: 'Solaris' }] });
  });

  it("answers another shop's order with 404, as if it did not exist, and leaves it as it was", async () => {
    const server = app.getHttpServer();
    expectProblem(await request(server).get(`/orders/${northOrder.id}`).set(south), 404, 'SVC_NOT_FOUND');
    const patch = await request(server).patch(`/orders/${northOrder.id}`).set(south).send({ quantity: 99 });
    expectProblem(patch, 404, 'SVC_NOT_FOUND');
    expect(await orders.findOneBy({ id: northOrder.id })).toMatchObject({ quantity: 2 });
  });

  it("files a new order under the caller's shop, and refuses a body that names one", async () => {
    const server = app.getHttpServer();
    const created = await request(server).post('/orders').set(south).send({ title: 'Ubik' }).expect(201);
    expect(created.body).toMatchObject({ tenant: 'south', title: 'Ubik', quantity: 1 });
    const smuggled = await request(server).post('/orders').set(south).send({ title: 'Ubik', tenant: 'north' });
    const problem = expectProblem(smuggled, 400, 'SVC_VALIDATION_FAILED');
    expect(problem.errors).toEqual([expect.objectContaining({ field: 'tenant', code: 'not_writable' })]);
  });

  it('refuses a caller whose token names no shop, with 403', async () => {
    expectProblem(await request(app.getHttpServer()).get('/orders').set(bearer('editor')), 403, 'SVC_FORBIDDEN');
  });
});
