/**
 * The stage contract: an operation is an ordered list of small named stages, resolved once per operation at bootstrap
 * (`operations/operation-flows.ts` writes every list), that share one call and one mutable flow state.
 */
import type { EntityKey } from '../persistence/entity-metadata';
import type { AdapterSession, Row } from '../persistence/repository-adapter';
import type { ItemReadPlan, ListReadPlan } from '../query/resolve-list-query';
import { runInTransaction } from './run-in-transaction';
import type { ExecuteResponse, OperationCall } from './operation-call';

/** What the stages of one call hand each other. Each field names the stage that fills it. */
export interface FlowState {
  /** key: the addressed row's lookup values, from the route id. */
  lookup?: EntityKey;
  /** input: the body as the operation's slot admits it (with `set` merged for create and update). */
  values?: Row;
  /** What the policy and the guard give a policy as `body`. */
  body?: unknown;
  /** plan: a list read's resolved query (filter, sort, page, select, include). */
  plan?: ListReadPlan;
  /** shape: a single-row read's resolved `select` and `include`. */
  shape?: ItemReadPlan;
  /** The session of the enclosing `transaction(...)` stage. */
  session?: AdapterSession;
  /** guard: the addressed row as locked before the write (null for a create). */
  before?: Row | null;
  /** The written or read row's primary key. */
  key?: EntityKey;
  /** The row after the write, or the row read (null for a delete). */
  row?: Row | null;
  /** A replacement or custom handler's result. */
  result?: unknown;
  /** The fields a write changed, when it knows them better than a before/after comparison. */
  changed?: readonly string[];
  /** Other entities whose cached reads the write made stale. */
  touches?: readonly string[];
  /** An operation's own working value (a JSON Patch document, a member change). */
  work?: unknown;
  /** output: what the call answers. */
  response?: ExecuteResponse;
}

export interface Stage {
  readonly name: string;
  /** Runs even when an earlier stage failed (the after-commit step: whatever committed is after-committed). */
  readonly always?: boolean;
  /** The stages it runs inside it (a transaction, a result cache), for the list a reader or a test sees. */
  readonly inner?: readonly Stage[];
  /** A branch's other list, run when its test fails. */
  readonly otherwise?: readonly Stage[];
  run(call: OperationCall, state: FlowState): void | Promise<void>;
}

/** A named stage. */
export function stage(name: string, run: Stage['run'], options: { always?: boolean } = {}): Stage {
  return { name, run, ...options };
}

/**
 * Runs the stages in order. When one fails, the rest are skipped except those marked `always`, and the first failure
 * is rethrown. A stage that returns no promise is not awaited (no extra turn of the event loop per stage).
 */
export async function runStages(call: OperationCall, stages: readonly Stage[], state: FlowState): Promise<void> {
  let failure: { error: unknown } | undefined;
  for (const current of stages) {
    if (failure && !current.always) continue;
    try {
      const pending = current.run(call, state);
      if (pending !== undefined) await pending;
    } catch (error) {
      failure ??= { error };
    }
  }
  if (failure) throw failure.error;
}

/**
 * The inner stages in one transaction (`state.session`), retried whole on a deadlock or a serialization failure; a
 * failure in any of them rolls the write back.
 */
export function transaction(...inner: Stage[]): Stage {
  return {
    name: 'transaction',
    inner,
    run: (call, state) =>
      runInTransaction(call, async (session) => {
        state.session = session;
        try {
          await runStages(call, inner, state);
        } finally {
          state.session = undefined;
        }
      }),
  };
}

/**
 * One of two branches, chosen per call by `test`: for choices that depend on the caller or the request (a scope, an
 * If-Match header). Choices that the configuration alone decides are made when the list is resolved.
 */
export function branch(
  name: string,
  test: (call: OperationCall, state: FlowState) => boolean | Promise<boolean>,
  then: readonly Stage[],
  otherwise: readonly Stage[],
): Stage {
  return {
    name,
    inner: then,
    otherwise,
    run: async (call, state) => runStages(call, (await test(call, state)) ? then : otherwise, state),
  };
}

/**
 * The names of a list as a reader sees it, inner stages in brackets and a branch as `test ? (...) : (...)`:
 * `key, input, lean ? (updateAlone) : (transaction(guard, references, update, reread)), outcome, output`.
 */
export function stageNames(stages: readonly Stage[]): string[] {
  return stages.map((current) => {
    const inner = (list: readonly Stage[]) => `(${stageNames(list).join(', ')})`;
    if (current.otherwise) return `${current.name} ? ${inner(current.inner ?? [])} : ${inner(current.otherwise)}`;
    return current.inner ? `${current.name}${inner(current.inner)}` : current.name;
  });
}
