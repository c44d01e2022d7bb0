/**
 * Every surface covers every operation: for each standard operation in the registry, on in one fixture, its agent
 * tool (listed by the MCP SDK's own client), its OpenAPI operation and a GraphQL root field take each query property,
 * the body and the key it takes, and answer what it answers. A surface that has no rendering for an operation's shape
 * fails here, by operation and by what it left out, rather than serving a tool with no arguments or a document with no
 * parameters.
 */
import { isDeepStrictEqual } from 'node:util';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import type { EntityDescription, OperationDescription } from '@svc/core';
import { MEASURE_FUNCTIONS, STANDARD_OPERATIONS } from '@svc/core/spi';
import { buildSvcSchema, OPERATION_EXTENSION } from '@svc/graphql';
import { toolNameOf } from '@svc/mcp';
import { SvcRegistry } from '@svc/nestjs';
import type { GraphQLField, GraphQLObjectType, GraphQLSchema } from 'graphql';
import { Author, BOOKSTORE_ENTITIES, Book, Tag } from '../fixtures/bookstore-entities';
import { svcController } from '../support/create-test-app';
import { TEST_DATABASES } from '../support/test-databases';
import { startMcpApp, type McpApp } from './support/mcp-app';
import { connectMcp, type McpTestClient, type ToolInfo } from './support/mcp-clients';
import { dataOf, postGraphql } from './support/graphql-http';

const sqlite = TEST_DATABASES.find((db) => db.name === 'sqlite')!;

type Schema = Record<string, unknown>;

/** Query properties a GraphQL selection set stands for. */
const SELECTED = new Set(['select', 'include', 'count', ...MEASURE_FUNCTIONS]);

/** Every operation of the registry on: batches, the aggregate, the count, restore and purge (Book soft-deletes). */
const Books = svcController('books', Book, {
  operations: Object.fromEntries(
    STANDARD_OPERATIONS.filter((definition) => !definition.optIn).map((definition) => [definition.id, true]),
  ),
  batch: { create: true, update: true, delete: true },
  aggregate: { groupBy: ['published'] },
  count: true,
  search: { fields: ['title'] },
  include: { fields: ['author', 'tags'] },
});

describe('Binding coverage', () => {
  let t: McpApp;
  let client: McpTestClient;
  let description: EntityDescription;
  let tools: Map<string, ToolInfo>;
  let document: OpenAPIObject;
  let graphql: GraphQLSchema;

  beforeAll(async () => {
    t = await startMcpApp({
      db: sqlite,
      suite: 'e2e_binding_coverage',
      entities: BOOKSTORE_ENTITIES,
      controllers: [Books, svcController('authors', Author), svcController('tags', Tag)],
      svc: { graphql: {} },
    });
    description = t.app.get(SvcRegistry).serviceFor(Book).describe();
    client = await connectMcp('v2 client, 2026-07-28', { url: t.url, headers: { 'x-user': 'user:a:editor' } });
    tools = new Map((await client.listTools()).map((tool) => [tool.name, tool]));
    document = SwaggerModule.createDocument(t.app, new DocumentBuilder().setOpenAPIVersion('3.1.0').build());
    graphql = buildSvcSchema(t.app.get(SvcRegistry).instance);
  });

  afterAll(async () => {
    await client?.close();
    await t?.close();
  });

  const operations = () => description.operations.filter((operation) => operation.standard);

  it('has every operation of the registry on in the fixture', () => {
    expect(
      operations()
        .map((operation) => operation.id)
        .sort(),
    ).toEqual(STANDARD_OPERATIONS.map((definition) => definition.id).sort());
    expect(operations().every((operation) => operation.state === 'on')).toBe(true);
  });

  describe.each(STANDARD_OPERATIONS.map((definition) => definition.id))('%s', (id) => {
    const operation = () => description.operations.find((candidate) => candidate.id === id)!;
    const query = () => propertiesOf(operation().schemas.query);

    it('has an agent tool taking its key, its body as data and each query property, answering its success', () => {
      const tool = tools.get(toolNameOf(description.name, id));
      expect(tool).toBeDefined();
      const input = propertiesOf(tool!.inputSchema);
      const missing = expectedArguments(description, operation()).filter((name) => !(name in input));
      expect(missing).toEqual([]);
      const success = operation().schemas.responses[String(operation().successStatus)]!;
      const output = (tool!.outputSchema?.['anyOf'] as Schema[] | undefined)?.[0];
      expect(output).toBeDefined();
      if (success.schema) {
        const answered = Object.keys(propertiesOf(resolved(description, success.schema)));
        expect(Object.keys(propertiesOf(output!))).toEqual(expect.arrayContaining(answered));
      }
    });

    it('has an OpenAPI operation taking each path and query parameter and its body, answering each status', () => {
      const { method, path } = operation().route!;
      const openapi = document.paths[`/books${path ? `/${path.replace(/:(\w+)/g, '{$1}')}` : ''}`]?.[
        method.toLowerCase() as 'get'
      ] as { parameters?: { name: string; in: string }[]; requestBody?: unknown; responses: Schema } | undefined;
      expect(openapi).toBeDefined();
      const names = new Set((openapi!.parameters ?? []).map((parameter) => parameter.name));
      const { queryNames, body, responses } = operation().schemas;
      const missing = [
        ...Object.keys(propertiesOf(operation().schemas.params)),
        ...Object.entries(query()).map(([name, schema]) =>
          schema['type'] === 'object' && !schema['$ref'] ? `${name}[` : (queryNames[name] ?? name),
        ),
      ].filter((name) => !names.has(name) && ![...names].some((given) => name.endsWith('[') && given.startsWith(name)));
      expect(missing).toEqual([]);
      expect(openapi!.requestBody !== undefined).toBe(body !== undefined);
      expect(Object.keys(openapi!.responses).sort()).toEqual(Object.keys(responses).sort());
    });

    it('has a GraphQL root field that takes its key, its body and the query properties GraphQL takes', () => {
      const field = rootFieldOf(graphql, id);
      expect(field).toBeDefined();
      const args = new Set(field!.args.map((arg) => arg.name));
      const expected = [
        ...(operation().takesId ? ['id'] : []),
        ...(operation().schemas.body ? ['input'] : []),
        // The selection set chooses the fields, the relations and an aggregate's functions; GraphQL pages by limit and
        // offset.
        ...Object.keys(query()).filter((name) => !SELECTED.has(name) && name !== 'page'),
      ];
      expect(expected.filter((name) => !args.has(name))).toEqual([]);
    });
  });
});

describe.each(TEST_DATABASES)('GraphQL row view on $name', (db) => {
  let t: McpApp;

  beforeAll(async () => {
    t = await startMcpApp({
      db,
      suite: 'e2e_binding_view',
      entities: BOOKSTORE_ENTITIES,
      controllers: [Books, svcController('authors', Author), svcController('tags', Tag)],
      svc: { graphql: {} },
    });
    const books = t.dataSource.getRepository(Book);
    const [, gone] = await books.save([
      { title: 'Kept', published: true },
      { title: 'Gone', published: true },
    ]);
    await books.softDelete(gone!.id);
  });

  afterAll(async () => {
    await t?.close();
  });

  const titles = async (args: string) =>
    dataOf(
      await postGraphql<{ books: { items: { title: string }[] } }>(t.app.getHttpServer(), {
        query: `{ books${args} { items { title } } }`,
        headers: { 'x-user': 'user:a:editor' },
      }),
    ).books.items.map((book) => book.title);

  it('lists live rows, with withDeleted the deleted ones too, with onlyDeleted those alone, as REST does', async () => {
    expect(await titles('')).toEqual(['Kept']);
    expect((await titles('(withDeleted: true)')).sort()).toEqual(['Gone', 'Kept']);
    expect(await titles('(onlyDeleted: true)')).toEqual(['Gone']);
  });

  it('counts the deleted rows in an aggregate with withDeleted', async () => {
    const count = async (args: string) =>
      dataOf(
        await postGraphql<{ booksAggregate: { items: { count: number }[] } }>(t.app.getHttpServer(), {
          query: `{ booksAggregate${args} { items { count } } }`,
          headers: { 'x-user': 'user:a:editor' },
        }),
      ).booksAggregate.items[0]!.count;
    expect(await count('')).toBe(1);
    expect(await count('(withDeleted: true)')).toBe(2);
  });
});

function propertiesOf(schema: Schema | undefined): Record<string, Schema> {
  return (schema?.['properties'] as Record<string, Schema> | undefined) ?? {};
}

/** A named schema's content in place of its `$ref`. */
function resolved(description: EntityDescription, schema: Schema): Schema {
  const ref = schema['$ref'];
  return typeof ref === 'string' ? (description.schemas[ref.replace('#/$defs/', '')] as Schema) : schema;
}

/** What a tool must take: the key as `id`, the body as `data`, the query's properties (a page as limit and offset). */
function expectedArguments(description: EntityDescription, operation: OperationDescription): string[] {
  const params = Object.keys(propertiesOf(operation.schemas.params)).map((name) =>
    name === description.lookup.param ? 'id' : name,
  );
  const query = Object.keys(propertiesOf(operation.schemas.query)).flatMap((name) =>
    name === 'page' ? ['limit', 'offset'] : [name],
  );
  return [...params, ...(operation.schemas.body ? ['data'] : []), ...query];
}

/** The query or mutation field that runs the operation `id` of Book. */
function rootFieldOf(schema: GraphQLSchema, id: string): GraphQLField<unknown, unknown> | undefined {
  const roots = [schema.getQueryType(), schema.getMutationType()].filter(Boolean) as GraphQLObjectType[];
  return roots
    .flatMap((root) => Object.values(root.getFields()))
    .find((field) => isDeepStrictEqual(field.extensions?.[OPERATION_EXTENSION], { entity: 'Book', operation: id }));
}
