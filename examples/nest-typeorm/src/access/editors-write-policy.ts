/** The bookstore's policy: anyone may read; every write needs an editor. */
import type { PolicyFunction } from '@svc/core';
import { callerOf } from './caller';

const READS: ReadonlySet<string> = new Set(['findMany', 'findOne', 'aggregate']);

/** Allows `findMany`, `findOne` and `aggregate` to everyone and any other operation to an editor; anything else is a 403. */
export const editorsWrite: PolicyFunction = ({ operation, context }) =>
  READS.has(operation) || callerOf(context)?.role === 'editor';
