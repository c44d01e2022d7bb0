/**
 * Nested writes on the agent tools and in the OpenAPI document, on each database: the book's create tool lists each
 * relation's nested forms in its input schema, takes a nested `data` with the MCP SDK's own client and writes the
 * rows, and answers a nested row's problem by its path; the OpenAPI 3.1 document is valid and types the book's bodies
 * with the same forms (to-many: an array of one of them; to-one: a reference or one of them).
 */
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { createTestApp, svcController, TEST_PLATFORM, type TestApp } from '../support/create-test-app';
import { validateOpenApi } from '../support/openapi-checks';
import { TEST_DATABASES } from '../support/test-databases';
import { connectMcp, MCP_CLIENT_KINDS, type McpTestClient, type ToolInfo } from './support/mcp-clients';
import { startMcpApp, type McpApp } from './support/mcp-app';
import {
  AUTHOR_CONFIG,
  BOOK_CONFIG,
  NESTED_ENTITIES,
  NwAuthor,
  NwBook,
  NwReview,
  NwTag,
  REVIEW_CONFIG,
  TAG_CONFIG,
} from './support/nested-fixtures';

type Schema = Record<string, unknown>;

/** Authors write their books nested too, one level deep. */
const AUTHOR_WITH_BOOKS = {
  ...AUTHOR_CONFIG,
  relations: { books: { write: { nested: { create: true as const }, maxDepth: 1 } } },
};

const controllers = () => [
  svcController('books', NwBook, BOOK_CONFIG),
  svcController('authors', NwAuthor, AUTHOR_WITH_BOOKS),
  svcController('tags', NwTag, TAG_CONFIG),
  svcController('reviews', NwReview, REVIEW_CONFIG),
];

/** The database namespace of a suite: the Fastify run of this file gets its own. */
const suite = (name: string) => (TEST_PLATFORM === 'fastify' ? `${name}_fastify` : name);

const propertiesOf = (schema: unknown) => (schema as { properties: Record<string, Schema> }).properties;
const formsOf = (schema: unknown) =>
  ((schema as { oneOf: Schema[] }).oneOf ?? []).map((option) => Object.keys(propertiesOf(option)));

describe.each(TEST_DATABASES)('Nested writes on the agent tools on $name', (db) => {
  let app: McpApp;

  beforeAll(async () => {
    app = await startMcpApp({
      db,
      suite: 'e2e_nested_mcp',
      entities: NESTED_ENTITIES,
      controllers: controllers(),
    });
    await app.dataSource.getRepository(NwTag).save({ tenant: 'a', name: 'classic' });
  });
  afterAll(() => app?.close());

  describe.each(MCP_CLIENT_KINDS)('with the %s', (kind) => {
    let client: McpTestClient;
    let tools: ToolInfo[];
    const tool = (name: string) => tools.find((candidate) => candidate.name === name)!;

    beforeAll(async () => {
      client = await connectMcp(kind, { url: app.url, headers: { 'x-tenant': 'a' } });
      tools = await client.listTools();
    });
    afterAll(() => client?.close());

    /** The create tool's `data` schema, its `$defs` resolved. */
    const createData = (): Schema => {
      const input = tool('nw_book_create_one').inputSchema as { properties: Schema; $defs?: Record<string, Schema> };
      const data = input.properties['data'] as Schema;
      const ref = data['$ref'] as string | undefined;
      return ref ? input.$defs![ref.slice('#/$defs/'.length)]! : data;
    };

    it("lists each relation's nested forms in the create tool's input schema", () => {
      const properties = propertiesOf(createData());
      expect(properties['tags']).toMatchObject({ type: 'array', maxItems: 5 });
      expect(formsOf(properties['tags']!['items'])).toEqual([['create'], ['connect'], ['connectOrCreate']]);
      expect(formsOf(properties['reviews']!['items'])).toEqual([['create'], ['connect']]);
      // A review created under a book leaves its book to the write.
      const review = propertiesOf((properties['reviews']!['items'] as { oneOf: Schema[] }).oneOf[0]!)['create'];
      expect(Object.keys(propertiesOf(review))).toEqual(['rating']);
      // The author: a plain reference (or null), or one of its nested forms.
      const author = properties['author']!['anyOf'] as Schema[];
      expect(author).toHaveLength(2);
      expect(formsOf(author[1])).toEqual([['create'], ['connect'], ['update']]);
    });

    it('creates a book with a new author and a matched and a new tag from nested data', async () => {
      const title = `Tools ${kind}`;
      const result = await client.callTool('nw_book_create_one', {
        data: {
          title,
          author: { create: { name: `Nina ${kind}` } },
          tags: [
            { connectOrCreate: { where: { name: 'classic' }, create: {} } },
            { connectOrCreate: { where: { name: `made ${kind}` }, create: {} } },
          ],
        },
      });
      expect(result.isError).toBeFalsy();
      const id = result.structuredContent!['id'];
      const book = await client.callTool('nw_book_find_one', { id, include: ['author', 'tags'] });
      expect(book.structuredContent).toMatchObject({ title, author: { name: `Nina ${kind}`, tenant: 'a' } });
      const tags = (book.structuredContent!['tags'] as { name: string }[]).map((tag) => tag.name).sort();
      expect(tags).toEqual(['classic', `made ${kind}`].sort());
    });

    it("answers a nested row's problem by its path, with nothing written", async () => {
      const books = await app.dataSource.getRepository(NwBook).count();
      // The tool's own argument check holds each element to the form it names, and names the field as REST does.
      const invalid = await client.callTool('nw_book_create_one', {
        data: {
          title: 'Never',
          author: { create: { name: 7 } },
          tags: [
            { create: { name: 'fine' } },
            { create: { name: 'x'.repeat(41) } },
            { create: { name: 'y' }, connect: { id: 1 } },
          ],
          reviews: [{ create: { rating: 2, book: { id: 1 } } }],
        },
      });
      expect(invalid.isError).toBe(true);
      expect(invalid.structuredContent).toMatchObject({ code: 'SVC_VALIDATION_FAILED' });
      const errors = (invalid.structuredContent!['errors'] as { field: string; code: string }[]).map((error) => [
        error.field,
        error.code,
      ]);
      expect(errors).toEqual([
        ['author.create.name', 'type'],
        ['tags[1].create.name', 'maxLength'],
        ['tags[2]', 'invalid'],
        ['reviews[0].create.book', 'unknown'],
      ]);
      const refused = await client.callTool('nw_book_create_one', {
        data: { title: 'Never', tags: [{ create: { name: 'fine' } }, { create: { name: 'forbidden' } }] },
      });
      expect(refused.isError).toBe(true);
      expect(refused.structuredContent).toMatchObject({ code: 'SVC_FORBIDDEN' });
      expect(String(refused.structuredContent!['detail'])).toContain('tags[1]');
      expect(await app.dataSource.getRepository(NwBook).count()).toBe(books);
    });
  });
});

describe.each(TEST_DATABASES)('Nested writes in the OpenAPI document on $name', (db) => {
  let t: TestApp;
  let document: OpenAPIObject;

  beforeAll(async () => {
    t = await createTestApp({
      db,
      suite: suite('e2e_nested_openapi'),
      entities: NESTED_ENTITIES,
      controllers: controllers(),
    });
    const config = new DocumentBuilder().setOpenAPIVersion('3.1.0').setTitle('Nested').setVersion('1.0.0').build();
    document = SwaggerModule.createDocument(t.app, config);
  });
  afterAll(async () => {
    await t?.close();
  });

  const schema = (name: string) => document.components!.schemas![name] as Schema;

  it('is valid OpenAPI 3.1, every reference resolved', async () => {
    await expect(validateOpenApi(document)).resolves.toBeUndefined();
    const refs = JSON.stringify(document).match(/"\$ref":"[^"]*"/g) ?? [];
    for (const ref of new Set(refs)) expect(ref).toMatch(/"#\/components\/schemas\/[^"]+"/);
  });

  it("types NwBookCreate's tags as an array of one of three forms, and its author as a reference or a form", () => {
    const properties = propertiesOf(schema('NwBookCreate'));
    expect(properties['tags']).toMatchObject({ type: 'array', maxItems: 5 });
    expect(formsOf(properties['tags']!['items'])).toEqual([['create'], ['connect'], ['connectOrCreate']]);
    const author = properties['author']!['anyOf'] as Schema[];
    expect(JSON.stringify(author[0])).toContain('"id"');
    expect(formsOf(author[1])).toEqual([['create'], ['connect'], ['update']]);
    expect(formsOf(propertiesOf(schema('NwBookPatch'))['reviews']!['items'])).toEqual([['create'], ['connect']]);
  });

  it("types a nested member's create without its way back to the parent, its own nested forms within maxDepth", () => {
    const books = propertiesOf(schema('NwAuthorCreate'))['books']!;
    const book = propertiesOf(propertiesOf((books['items'] as { oneOf: Schema[] }).oneOf[0])['create']);
    expect(Object.keys(book).sort()).toEqual(['reviews', 'tags', 'title']);
    // Under a book's author, the author's books are past their maxDepth (1).
    const author = (propertiesOf(schema('NwBookCreate'))['author']!['anyOf'] as Schema[])[1]!;
    const created = propertiesOf((author as { oneOf: Schema[] }).oneOf[0])['create'];
    expect(Object.keys(propertiesOf(created))).toEqual(['name']);
  });

  it('points the book routes at those bodies', () => {
    const paths = document.paths as Record<
      string,
      Record<string, { requestBody?: { content: Record<string, Schema> } }>
    >;
    const body = paths['/books']!['post']!.requestBody!.content['application/json']!['schema'];
    expect(body).toEqual({ $ref: '#/components/schemas/NwBookCreate' });
  });
});
