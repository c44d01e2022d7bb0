/** `page`: 1-indexed `page[number]` and `page[size]`, normalized to limit and offset (which the envelope reports). */
import { MAX_PAGE_INTEGER, readPageInteger, type PaginationStrategy } from './pagination-strategy';

export const PagePaginationStrategy: PaginationStrategy = {
  name: 'page',
  params: ['page[number]', 'page[size]'],
  plan({ params, settings, errors }) {
    const size = Math.min(
      readPageInteger(params.get('page[size]'), 'page[size]', errors, 1) ?? settings.defaultLimit,
      settings.maxLimit,
    );
    const number = readPageInteger(params.get('page[number]'), 'page[number]', errors, 1) ?? 1;
    const offset = Math.min((number - 1) * size, MAX_PAGE_INTEGER);
    return { limit: size, offset, reportedLimit: size, reportedOffset: offset };
  },
};
