/** `none`: the whole match set; no pagination parameter is taken; the envelope reports limit 2147483647, offset 0. */
import { MAX_PAGE_INTEGER, type PaginationStrategy } from './pagination-strategy';

export const NonePaginationStrategy: PaginationStrategy = {
  name: 'none',
  params: [],
  plan() {
    return { offset: 0, reportedLimit: MAX_PAGE_INTEGER, reportedOffset: 0 };
  },
};
