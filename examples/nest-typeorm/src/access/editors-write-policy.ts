/** The bookstore's policy: anyone may read; every write needs an editor (or an admin). */
import type { PolicyFunction } from '@svc/core';
import { callerOf, writesAs } from './caller';

const READS: ReadonlySet<string> = new Set(['findMany', 'findOne', 'aggregate']);

/**
 * Allows `findMany`, `findOne` and `aggregate` to everyone and any other operation to an editor or an admin; anything
 * else is a 403. What each role reads and writes of a book is narrowed further by the Book controller's `access`.
 */
export const editorsWrite: PolicyFunction = ({ operation, context }) =>
  READS.has(operation) || writesAs(callerOf(context)?.role);
