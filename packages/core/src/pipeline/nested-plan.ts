/** A body's nested writes as read and checked before anything is written (`operations/nested-writes.ts`). */
import type { NestedForm, NestedRelation } from '../config/nested-writes';
import type { Row } from '../persistence/repository-adapter';
import type { OperationCall } from './operation-call';
import type { WriteOutcome } from './write-outcome';

/** One nested row as the body names it, read and checked. */
export interface NestedItem {
  readonly path: string;
  readonly form: NestedForm;
  /** The call of the target entity's own operation this row goes through (createOne, or patchOne for `update`). */
  readonly call: OperationCall;
  /** create and connectOrCreate: the row to insert, with what `set` forces; update: the changes. */
  readonly values?: Row;
  /** create and connectOrCreate: the created row's own nested writes. */
  readonly nested?: NestedPlan;
  /** connect and update: the row's key value; connectOrCreate: the unique values it matches by. */
  readonly key?: unknown;
  readonly match?: Row;
}

export interface NestedGroup {
  readonly nested: NestedRelation;
  readonly items: readonly NestedItem[];
  /** A list of values (`relations.<name>.values`): the members become exactly these rows. */
  readonly replace?: boolean;
}

/** What one body writes through its relations: to-one rows before the row itself, to-many rows after it. */
export interface NestedPlan {
  readonly toOne: readonly NestedGroup[];
  readonly toMany: readonly NestedGroup[];
  /**
   * The body's own plan: what its nested rows' writes did in the current attempt of the transaction, handed to the
   * call's outcomes once it commits (an attempt that rolls back leaves none: no event for a row never written).
   */
  readonly pending?: WriteOutcome[];
}
