/**
 * SvcToolset without a transport: tool names, the schemas each pagination strategy and key shape gets, how arguments
 * become the engine's request, and the caller's context reaching policy. Over core's in-memory adapter.
 */
import { createSvc, type EntityConfig, type Row, type SvcOptions } from '@svc/core';
import { type EntityMetadata } from '@svc/core/spi';
import { SvcToolset, toolNameOf } from '@svc/mcp';
import { MemoryRepositoryAdapter } from '../../core/test/support/memory-adapter';
import { BOOK_METADATA, MEMBERSHIP_METADATA, NOTE_METADATA } from '../../core/test/support/fixtures';

function toolset(
  metadata: EntityMetadata,
  config: EntityConfig = {},
  seed: Row[] = [],
  onServerError?: (error: unknown, tool: string) => void,
) {
  const adapter = new MemoryRepositoryAdapter(metadata, seed);
  const svc = createSvc({} as SvcOptions);
  svc.createCrud(metadata.target, config, { adapter });
  return new SvcToolset({ svc, onServerError });
}

function schemaOf(set: SvcToolset, name: string): Record<string, Record<string, Record<string, unknown>>> {
  return set.definitions.find((definition) => definition.name === name)!.inputSchema as never;
}

const BOOKS: Row[] = Array.from({ length: 7 }, (_, index) => ({
  id: index + 1,
  title: `b${index + 1}`,
  pages: index * 10,
  published: false,
  status: 'draft',
  tenant: index % 2 === 0 ? 't1' : 't2',
}));

describe('toolNameOf', () => {
  it('joins the entity and the operation in snake case', () => {
    expect(toolNameOf('Book', 'findMany')).toBe('book_find_many');
    expect(toolNameOf('BookReview', 'patchOne')).toBe('book_review_patch_one');
    expect(toolNameOf('HTTPLog', 'findOne')).toBe('http_log_find_one');
  });

  it('refuses a name longer than MCP allows, naming the entity', () => {
    expect(() => toolNameOf('A'.repeat(30) + 'VeryLongEntityNameIndeedReally', 'restoreOne')).toThrow(
      /MCP refuses.*Shorten the entity name/,
    );
  });
});

describe('SvcToolset', () => {
  describe('for a composite-key entity', () => {
    it('takes the id as an object of the key columns', () => {
      const set = toolset(MEMBERSHIP_METADATA);
      expect(schemaOf(set, 'membership_find_one')['properties']!['id']).toMatchObject({
        type: 'object',
        properties: { userId: { type: 'integer' }, groupId: { type: 'integer' } },
        required: ['userId', 'groupId'],
      });
    });
  });

  describe('under the page strategy', () => {
    const set = toolset(BOOK_METADATA, { pagination: { strategy: 'page', defaultLimit: 2 } }, BOOKS);

    it('still takes limit and offset, and serves the page they name', async () => {
      const result = await set.call('book_find_many', { limit: 2, offset: 4, sort: ['id'] }, {});
      expect(result.isError).toBeUndefined();
      expect((result.structuredContent['items'] as Row[]).map((row) => row['id'])).toEqual([5, 6]);
    });

    it('refuses an offset that is not a multiple of limit, naming offset', async () => {
      const result = await set.call('book_find_many', { limit: 2, offset: 3 }, {});
      expect(result.structuredContent).toMatchObject({ code: 'SVC_QUERY_INVALID', errors: [{ param: 'offset' }] });
    });
  });

  describe('under the none strategy', () => {
    it('offers no limit or offset', () => {
      const properties = schemaOf(toolset(NOTE_METADATA, { pagination: { strategy: 'none' } }), 'note_find_many')[
        'properties'
      ]!;
      expect(properties['limit']).toBeUndefined();
      expect(properties['offset']).toBeUndefined();
    });
  });

  describe('the filter schema', () => {
    it('types each value by column kind: uuid, date, enum, boolean, number', () => {
      const schema = schemaOf(toolset(BOOK_METADATA), 'book_find_many') as never as {
        $defs: { BookFilter: { properties: Record<string, { properties: Record<string, Record<string, unknown>> }> } };
      };
      const fields = schema.$defs.BookFilter.properties;
      expect(fields['code']!.properties['eq']).toMatchObject({ type: 'string', format: 'uuid' });
      expect(fields['releasedOn']!.properties['gte']).toMatchObject({ type: 'string', format: 'date' });
      expect(fields['status']!.properties['in']).toMatchObject({ items: { enum: ['draft', 'live'] } });
      expect(fields['published']!.properties['eq']).toMatchObject({ type: 'boolean' });
      expect(fields['rating']!.properties['between']).toMatchObject({ minItems: 2, maxItems: 2 });
      expect(fields['title']!.properties['isNull']).toMatchObject({ type: 'boolean' });
    });
  });

  describe('a call', () => {
    it("runs with the caller's context: policy and filter.apply see it", async () => {
      const set = toolset(
        BOOK_METADATA,
        {
          policy: ({ context }) => context['tenant'] !== undefined,
          filter: { apply: ({ context }) => ({ tenant: { eq: context['tenant'] } }) },
        },
        BOOKS,
      );
      const t1 = await set.call('book_find_many', {}, { tenant: 't1' });
      expect((t1.structuredContent['items'] as Row[]).every((row) => row['tenant'] === 't1')).toBe(true);
      expect(t1.structuredContent['total']).toBe(4);
      const anonymous = await set.call('book_find_many', {}, {});
      expect(anonymous).toMatchObject({ isError: true, structuredContent: { code: 'SVC_FORBIDDEN', status: 403 } });
      const described = await set.call('svc_describe', {}, {});
      expect(described.structuredContent).toEqual({ entities: [] });
    });

    it('reports every bad argument together, each named by its path', async () => {
      const set = toolset(BOOK_METADATA, {}, BOOKS);
      const result = await set.call(
        'book_find_many',
        { limit: 0, sort: ['title', 'title'], filter: { and: [{ pages: { in: [] } }], not: { title: 3 } } },
        {},
      );
      expect(result.structuredContent['code']).toBe('SVC_QUERY_INVALID');
      expect(
        (result.structuredContent['errors'] as { param: string; code: string }[]).map(
          (error) => `${error.param} ${error.code}`,
        ),
      ).toEqual(['limit minimum', 'sort uniqueItems', 'filter.and.0.pages.in minItems', 'filter.not.title type']);
    });
  });

  describe('a call that fails on the server', () => {
    it('answers SVC_INTERNAL without the cause, and hands the cause to onServerError', async () => {
      const heard: [unknown, string][] = [];
      const set = toolset(
        BOOK_METADATA,
        {
          operations: {
            findOne: {
              handler: () => {
                throw new Error('the disk is on fire');
              },
            },
          },
        },
        BOOKS,
        (error, tool) => heard.push([error, tool]),
      );
      const result = await set.call('book_find_one', { id: 1 }, {});
      expect(result).toMatchObject({ isError: true, structuredContent: { code: 'SVC_INTERNAL', status: 500 } });
      expect(result.content[0]!.text).not.toContain('disk');
      expect(heard).toHaveLength(1);
      expect(heard[0]![1]).toBe('book_find_one');
      expect(String((heard[0]![0] as { cause?: Error }).cause?.message)).toContain('the disk is on fire');
    });
  });
});
