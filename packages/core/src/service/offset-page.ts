/**
 * Limit and offset, as GraphQL lists and the agent tools take them, read as the page of an entity paged by page
 * number (`page[size]`, `page[number]`): the limit is the page size and the offset must fall on a page boundary.
 */
import { QueryInvalidException } from '../errors/svc-exception';
import type { EntityDescription } from './entity-description';

export interface OffsetPage {
  /** The page size: the limit, where one was given. */
  readonly size?: number;
  /** The page number (from 1), where an offset was given. */
  readonly number?: number;
}

/** The page that `limit` and `offset` name; an offset off a page boundary is a 400 naming `offset`. */
export function offsetPage(
  description: EntityDescription,
  args: { readonly limit?: number | null; readonly offset?: number | null },
): OffsetPage {
  const limit = args.limit ?? undefined;
  const offset = args.offset ?? undefined;
  const size = limit ?? description.pagination.defaultLimit;
  const sized = limit !== undefined ? { size: limit } : {};
  // A page size below 1 is the engine's to refuse (as page[size]); the offset is checked against a valid one.
  if (offset === undefined || size < 1) return sized;
  if (offset < 0 || offset % size !== 0) {
    throw new QueryInvalidException([
      {
        param: 'offset',
        code: 'invalid_value',
        detail: `${description.name} is paged by page: offset must be 0 or a multiple of limit (${size}). Send offset ${Math.max(0, offset - (offset % size))}.`,
      },
    ]);
  }
  return { ...sized, number: offset / size + 1 };
}
