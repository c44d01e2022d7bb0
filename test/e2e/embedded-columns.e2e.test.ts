/**
 * The columns of an embedded class (`@Column(() => Money) price`) on every surface: REST names them by their paths
 * (`price.amount`), as the MCP tools and the OpenAPI document do; GraphQL, whose names take no dot, names them with
 * an underscore (`price_amount`) in its types, inputs and aggregates, filters under the path as it filters a relation
 * path (`price: { amount: ... }`), and sorts by the path as text (`"-price.amount"`). Each surface writes them,
 * filters and sorts by them, and reads them back as stored.
 */
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import request from 'supertest';
import { Column, Entity, JoinColumn, ManyToOne, PrimaryGeneratedColumn } from 'typeorm';
import { bootstrapFailure, svcController } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { postGraphql } from './support/graphql-http';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { connectMcp, type McpTestClient } from './support/mcp-clients';

class Money {
  @Column({ type: 'int' }) amount!: number;
  @Column({ type: 'varchar', length: 3 }) currency!: string;
}

@Entity('embedded_surfaces_product')
class Product {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'varchar', length: 40 }) name!: string;
  @Column(() => Money) price!: Money;
}

class Place {
  @Column({ type: 'varchar', length: 40 }) city!: string;
  @Column({ type: 'varchar', length: 2 }) country!: string;
}

/** Served by no controller: a crate's include of it answers its columns as TypeORM reads them. */
@Entity('embedded_surfaces_depot')
class Depot {
  @PrimaryGeneratedColumn() id!: number;
  @Column(() => Place) place!: Place;
}

@Entity('embedded_surfaces_crate')
class Crate {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int', name: 'depot_id' }) depotId!: number;
  @ManyToOne(() => Depot) @JoinColumn({ name: 'depot_id' }) depot!: Depot;
}

/** A column whose own name is what GraphQL would call the embedded one. */
@Entity('embedded_surfaces_clash')
class Clash {
  @PrimaryGeneratedColumn() id!: number;
  @Column({ type: 'int', name: 'flat_amount' }) price_amount!: number;
  @Column(() => Money) price!: Money;
}

describe.each(TEST_DATABASES)('Embedded columns on every surface on $name', (db) => {
  let app: McpApp;
  let http: ReturnType<McpApp['app']['getHttpServer']>;
  let mcp: McpTestClient;

  beforeAll(async () => {
    app = await startMcpApp({
      db,
      suite: 'e2e_embedded_surfaces',
      entities: [Product, Depot, Crate],
      controllers: [
        svcController('products', Product, { aggregate: { groupBy: ['price.currency'] }, batch: { create: true } }),
        svcController('crates', Crate, { include: { fields: ['depot'] } }),
      ],
      svc: { graphql: true },
    });
    http = app.app.getHttpServer();
    mcp = await connectMcp('v2 client, 2026-07-28', { url: app.url });
  });
  afterAll(async () => {
    await mcp?.close();
    await app?.close();
  });

  it('writes, filters and reads them through the MCP tools, by their paths', async () => {
    const tools = await mcp.listTools();
    const create = tools.find((tool) => tool.name === 'product_create_one')!;
    expect(JSON.stringify(create.inputSchema)).toContain('"price.amount"');
    const created = await mcp.callTool('product_create_one', {
      data: { name: 'lamp', 'price.amount': 12, 'price.currency': 'EUR' },
    });
    expect(created.isError).toBeFalsy();
    expect(created.structuredContent).toMatchObject({ name: 'lamp', 'price.amount': 12, 'price.currency': 'EUR' });
    const missing = await mcp.callTool('product_create_one', { data: { name: 'desk', 'price.amount': 1 } });
    expect(missing.isError).toBe(true);
    expect(JSON.stringify(missing.structuredContent)).toContain('price.currency');
    const page = await mcp.callTool('product_find_many', {
      filter: { 'price.currency': { eq: 'EUR' } },
      sort: ['-price.amount'],
    });
    expect(page.isError).toBeFalsy();
    expect((page.structuredContent as { items: unknown[] }).items).toEqual([
      expect.objectContaining({ name: 'lamp', 'price.amount': 12 }),
    ]);
    await request(http)
      .delete(`/products/${(created.structuredContent as { id: number }).id}`)
      .expect(204);
  });

  it("projects an included target's embedded columns by their paths, where no entity serves the target", async () => {
    const depot = await app.dataSource.getRepository(Depot).save({ place: { city: 'Lyon', country: 'FR' } });
    await app.dataSource.getRepository(Crate).save({ depotId: depot.id });
    const whole = await request(http).get('/crates?include=depot');
    expect(whole.status).toBe(200);
    expect(whole.body.items[0].depot).toEqual({ id: depot.id, 'place.city': 'Lyon', 'place.country': 'FR' });
    const projected = await request(http).get('/crates?include=depot&select[depot]=place.city');
    expect(projected.status).toBe(200);
    expect(projected.body.items[0].depot).toEqual({ 'place.city': 'Lyon' });
    const unknown = await request(http).get('/crates?include=depot&select[depot]=place.zip');
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].param).toBe('select[depot]');
  });

  it('describes them by their paths in the OpenAPI document', async () => {
    const config = new DocumentBuilder().setOpenAPIVersion('3.1.0').setTitle('embedded').setVersion('1').build();
    const document = SwaggerModule.createDocument(app.app, config);
    const text = JSON.stringify(document);
    expect(text).toContain('"price.amount"');
    expect(text).toContain('filter[price.currency]');
  });

  it('serves them over GraphQL as price_amount and price_currency: types, inputs, filters, sorts and groups', async () => {
    const created = await postGraphql(http, {
      query:
        'mutation { createProduct(input: { name: "fan", price_amount: 30, price_currency: "USD" }) { id name price_amount price_currency } }',
    });
    expect(created.errors).toBeUndefined();
    const product = (created.data as { createProduct: Record<string, unknown> }).createProduct;
    expect(product).toMatchObject({ name: 'fan', price_amount: 30, price_currency: 'USD' });
    const stored = await request(http).get(`/products/${product['id'] as number}`);
    expect(stored.body).toMatchObject({ 'price.amount': 30, 'price.currency': 'USD' });
    await request(http)
      .post('/products/batch')
      .send([
        { name: 'cup', 'price.amount': 4, 'price.currency': 'USD' },
        { name: 'jug', 'price.amount': 9, 'price.currency': 'EUR' },
      ])
      .expect(201);
    const listed = await postGraphql(http, {
      query:
        '{ products(filter: { price: { currency: { eq: "USD" } } }, sort: ["-price.amount"]) { items { name price_amount } total } }',
    });
    expect(listed.errors).toBeUndefined();
    expect(listed.data).toEqual({
      products: {
        items: [
          { name: 'fan', price_amount: 30 },
          { name: 'cup', price_amount: 4 },
        ],
        total: 2,
      },
    });
    const patched = await postGraphql(http, {
      query: `mutation { patchProduct(id: "${product['id'] as number}", input: { price_amount: 31 }) { price_amount price_currency } }`,
    });
    expect(patched.errors).toBeUndefined();
    expect(patched.data).toEqual({ patchProduct: { price_amount: 31, price_currency: 'USD' } });
    const grouped = await postGraphql(http, {
      query:
        '{ productsAggregate(groupBy: [price_currency], sort: ["price_currency", "-sum.price_amount"]) { items { group { price_currency } count sum { price_amount } } } }',
    });
    expect(grouped.errors).toBeUndefined();
    expect(grouped.data).toEqual({
      productsAggregate: {
        items: [
          { group: { price_currency: 'EUR' }, count: 1, sum: { price_amount: 9 } },
          { group: { price_currency: 'USD' }, count: 2, sum: { price_amount: 35 } },
        ],
      },
    });
  });

  it('refuses at bootstrap an entity where two columns would share one GraphQL name', async () => {
    const error = await bootstrapFailure({
      db,
      suite: 'e2e_embedded_surfaces_clash',
      entities: [Clash],
      controllers: [svcController('clashes', Clash)],
      svc: { graphql: true },
    });
    expect(error.message).toContain("'price_amount' and 'price.amount' would both be the GraphQL field 'price_amount'");
  });
});
