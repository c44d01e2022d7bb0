/**
 * The pagination port's contract, run by every built-in strategy and a custom one: parameters from the grammar only,
 * a walk from the first page that serves every row exactly once, the envelope's reported limit and offset, and
 * refusals naming the parameter.
 */
import { createSvc, SvcException, type EntityConfig, type FindManyQuery, type PaginationStrategy } from '@svc/core';
import { BUILT_IN_STRATEGIES } from '../../src/pagination/built-in-strategies';
import { PAGINATION_PARAMS, readPageInteger } from '../../src/pagination/pagination-strategy';
import { BOOK_METADATA } from '../support/fixtures';
import { MemoryRepositoryAdapter } from '../support/memory-adapter';

/** A custom strategy as a user would register it: `skip` rows, no total of its own. */
const skipStrategy: PaginationStrategy = {
  name: 'skip',
  params: ['limit', 'offset'],
  plan({ params, settings, errors }) {
    const limit = Math.min(readPageInteger(params.get('limit'), 'limit', errors, 1) ?? 5, settings.maxLimit);
    const offset = readPageInteger(params.get('offset'), 'offset', errors) ?? 0;
    return { limit, offset, reportedLimit: limit, reportedOffset: offset };
  },
};

interface Page {
  readonly items: { id: number }[];
  readonly limit: number;
  readonly offset: number;
  readonly total: number | null;
  readonly meta?: Record<string, unknown>;
}

/** How a client continues under each strategy: the next query, or undefined after the last page. */
const NEXT: Record<string, (page: Page, query: FindManyQuery) => FindManyQuery | undefined> = {
  offset: (page) =>
    page.offset + page.limit < page.total! ? { limit: 4, offset: page.offset + page.limit } : undefined,
  skip: (page) => (page.items.length === 4 ? { limit: 4, offset: page.offset + 4 } : undefined),
  page: (page, query) =>
    page.offset + page.limit < page.total! ? { page: { number: (query.page?.number ?? 1) + 1, size: 4 } } : undefined,
  none: () => undefined,
  cursor: (page) => (page.meta?.['nextCursor'] ? { limit: 4, cursor: page.meta['nextCursor'] as string } : undefined),
  since: (page) => (page.items.length > 0 ? { limit: 4, since: page.meta!['nextSince'] as string } : undefined),
};
const FIRST: Record<string, FindManyQuery> = { page: { page: { number: 1, size: 4 } }, none: {} };

const rows = Array.from({ length: 23 }, (_, i) => ({
  id: i + 1,
  title: `Book ${i}`,
  pages: i % 5,
  rating: i % 4 === 0 ? null : i % 3,
  createdAt: new Date(Date.UTC(2026, 0, 1, 0, 0, i % 6)),
}));

function serviceFor(strategy: string) {
  const adapter = new MemoryRepositoryAdapter(
    BOOK_METADATA,
    rows.map((row) => ({ ...row })),
  );
  const config = {
    pagination: { strategy, since: { field: 'createdAt' }, maxLimit: 50 },
    sort: { default: strategy === 'cursor' ? ['rating', 'id'] : ['id'] },
  } as EntityConfig;
  return createSvc({ paginationStrategies: [skipStrategy] }).createCrud(BOOK_METADATA.target, config, { adapter });
}

const strategies = [...BUILT_IN_STRATEGIES.values(), skipStrategy];

describe.each(strategies.map((strategy) => ({ strategy })))('pagination strategy $strategy.name', ({ strategy }) => {
  it('takes only parameters of the grammar', () => {
    for (const param of strategy.params) expect(PAGINATION_PARAMS).toContain(param);
    expect(strategies.filter((other) => other.name === strategy.name)).toHaveLength(1);
  });

  it('serves every row exactly once, walking from the first page', async () => {
    const service = serviceFor(strategy.name);
    const seen: number[] = [];
    let query: FindManyQuery | undefined = FIRST[strategy.name] ?? { limit: 4 };
    for (let guard = 0; query && guard < 30; guard++) {
      const page = (await service.findMany(query)) as unknown as Page;
      expect(page.limit).toBeLessThanOrEqual(strategy.name === 'none' ? 2147483647 : 50);
      if (['cursor', 'since', 'none'].includes(strategy.name)) expect(page.offset).toBe(0);
      seen.push(...page.items.map((item) => item.id));
      query = NEXT[strategy.name]!(page, query);
    }
    expect([...seen].sort((a, b) => a - b)).toEqual(rows.map((row) => row.id));
  });

  it('refuses a malformed limit, naming it, when it takes one', async () => {
    if (!strategy.params.includes('limit')) return;
    const error = await serviceFor(strategy.name)
      .findMany({ limit: 'many' as unknown as number })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(SvcException);
    expect((error as SvcException).code).toBe('SVC_QUERY_INVALID');
    expect((error as SvcException).errors?.[0]?.param).toBe('limit');
  });

  it('refuses a pagination parameter it does not take, naming it', async () => {
    const foreign = (['cursor', 'offset', 'since'] as const).find((param) => !strategy.params.includes(param))!;
    const error = await serviceFor(strategy.name)
      .findMany({ [foreign]: foreign === 'offset' ? 1 : 'x' })
      .catch((caught: unknown) => caught);
    expect((error as SvcException).code).toBe('SVC_QUERY_UNSUPPORTED_PARAM');
    expect((error as SvcException).errors?.map((item) => item.param)).toContain(foreign);
  });
});
