/** The same app over GraphQL and the agent tools: the same guard, policy and scope answer there too. */
import type { INestApplication } from '@nestjs/common';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import request from 'supertest';
import { DataSource } from 'typeorm';
import { Order } from '../src/order.entity';
import { bearer, startApp } from './test-app';

describe('GraphQL and the agent tools', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await startApp('surfaces_e2e');
    const orders = app.get(DataSource).getRepository(Order);
    await orders.save([
      { tenant: 'north', title: 'Dune', quantity: 2 },
      { tenant: 'south', title: 'Solaris', quantity: 1 },
    ]);
  });

  afterAll(async () => {
    await app?.close();
  });

  describe('GraphQL', () => {
    const graphql = (query: string, headers: Record<string, string>) =>
      request(app.getHttpServer()).post('/graphql').set(headers).send({ query });

    it("answers a query with the caller's own shop's rows", async () => {
      const response = await graphql('{ orders { total items { title } } }', bearer('reader', { tenant: 'north' }));
      expect(response.body).toEqual({ data: { orders: { total: 1, items: [{ title: 'Dune' }] } } });
    });

    it("carries a refusal in the answer's errors, with Svc's code and problem", async () => {
      const response = await graphql('mutation { createBook(input: { title: "Ubik" }) { id } }', bearer('reader'));
      expect(response.body.data).toEqual({ createBook: null });
      expect(response.body.errors[0].extensions).toMatchObject({ code: 'SVC_FORBIDDEN', problem: { status: 403 } });
    });
  });

  describe('the agent tools (MCP)', () => {
    /** The MCP SDK's own client, connected as the caller whose headers it sends. */
    async function connect(headers: Record<string, string>): Promise<Client> {
      const client = new Client({ name: 'test-agent', version: '1.0.0' });
      const url = new URL('/mcp', await app.getUrl());
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers } }));
      return client;
    }

    it("calls a tool as the caller, in the caller's scope, and returns a refusal as a tool error", async () => {
      const client = await connect(bearer('reader', { tenant: 'south' }));
      try {
        const found = await client.callTool({ name: 'order_find_many', arguments: { limit: 10 } });
        expect(found.structuredContent).toMatchObject({ total: 1, items: [{ title: 'Solaris' }] });
        const refused = await client.callTool({ name: 'book_create_one', arguments: { data: { title: 'Ubik' } } });
        expect(refused).toMatchObject({ isError: true, structuredContent: { code: 'SVC_FORBIDDEN' } });
      } finally {
        await client.close();
      }
    });
  });
});
