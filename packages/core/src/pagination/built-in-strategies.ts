/** The strategies this version serves, by name. */
import { NonePaginationStrategy } from './none-pagination-strategy';
import { OffsetPaginationStrategy } from './offset-pagination-strategy';
import { PagePaginationStrategy } from './page-pagination-strategy';
import { CursorPaginationStrategy } from './cursor-pagination-strategy';
import { SincePaginationStrategy } from './since-pagination-strategy';
import type { PaginationStrategy } from './pagination-strategy';

export const BUILT_IN_STRATEGIES: ReadonlyMap<string, PaginationStrategy> = new Map(
  [
    OffsetPaginationStrategy,
    PagePaginationStrategy,
    NonePaginationStrategy,
    CursorPaginationStrategy,
    SincePaginationStrategy,
  ].map((strategy) => [strategy.name, strategy]),
);
