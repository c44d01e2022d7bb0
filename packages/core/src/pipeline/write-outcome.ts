/**
 * What a committed write did: the one record every write path yields (standard writes, custom writes, relation array
 * writes, JSON Patch, replacement handlers), and the only input of the after-commit step (cache invalidation, events).
 */
import type { RealtimeEventId, ResolvedSettings } from '../config/svc-settings';
import type { EntityKey } from '../persistence/entity-metadata';
import { canonicalJson } from '../cache/etag';
import type { Row } from '../persistence/repository-adapter';

export interface WriteOutcome {
  /** The entity written. */
  readonly entity: string;
  /** The operation id that wrote. */
  readonly operation: string;
  /** The realtime event this write is, when it is one (a custom write names it with `realtimeEvent`). */
  readonly event?: RealtimeEventId;
  /** The primary key of the row written, when one row was. */
  readonly key?: EntityKey;
  /** The row before the write, as the caller may see it (`select.fields`); null when it did not exist. */
  readonly before?: Readonly<Record<string, unknown>> | null;
  /** The row after the write, as the caller may see it; null when it no longer exists (or is soft-deleted). */
  readonly after?: Readonly<Record<string, unknown>> | null;
  /** The fields (and array relations) the write changed. */
  readonly changed?: readonly string[];
  /** The settings the write ran under, when they are not the call's (a nested row's, its own operation's). */
  readonly settings?: ResolvedSettings;
  /** Other entities whose cached reads the write makes stale (the targets of relation writes). */
  readonly touches?: readonly string[];
  /**
   * The rows as stored, every column: what decides which realtime subscribers may see the event (their scope may
   * name columns that are never served). Never served itself.
   */
  readonly stored?: { readonly before?: Row | null; readonly after?: Row | null };
}

/** The fields whose served values differ between two versions of a row (every field of the one that exists). */
export function changedFields(
  before: Readonly<Record<string, unknown>> | null | undefined,
  after: Readonly<Record<string, unknown>> | null | undefined,
): string[] {
  if (!before || !after) return Object.keys(after ?? before ?? {});
  const fields = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...fields].filter((field) => canonicalJson(before[field]) !== canonicalJson(after[field]));
}
