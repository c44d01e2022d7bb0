/**
 * The stage contract: an operation is an ordered list of small named stages, resolved once per operation at bootstrap
 * (each operation's definition writes its list), that share one call and one flow state. Each stage says what of the
 * state it needs and what it gives, and the phase it runs in; resolving a list checks that every need is given by an
 * earlier stage and that the phases keep their order, so a list in the wrong order stops the app at boot, naming both
 * stages.
 */
import type { RealtimeEventId } from '../config/svc-settings';
import { ConfigurationException } from '../errors/configuration-exception';
import type { EntityKey } from '../persistence/entity-metadata';
import type { FilterNode } from '../persistence/query-ast';
import type { AdapterSession, Row } from '../persistence/repository-adapter';
import type { ItemReadPlan } from '../query/resolve-item-query';
import type { ListReadPlan } from '../query/resolve-list-query';
import type { AggregatePlan } from '../query/resolve-aggregate-query';
import type { CountPlan } from '../query/resolve-count-query';
import { runInTransaction } from './run-in-transaction';
import type { NestedPlan } from './nested-plan';
import type { ExecuteResponse, OperationCall } from './operation-call';

/**
 * What the stages of one call hand each other. Each field names the stage that gives it; a stage gives a field only
 * where it leaves it set (a delete that leaves `row` null gives no row), except `result`, which the stage that ran the
 * handler gives whatever the handler returned (nothing, for a write that answers 204).
 */
export interface FlowState {
  /** key: the addressed row's lookup values, from the route id. */
  lookup?: EntityKey;
  /** input: the body as the operation's slot admits it (with `set` merged for create and update). */
  values?: Row;
  /** What the policy and the guard give a policy as `body`. */
  body?: unknown;
  /** plan: a list read's resolved query (filter, sort, page, select, include). */
  plan?: ListReadPlan;
  /** plan: an aggregate's resolved groups, functions, order and page, and the rows it reads. */
  aggregatePlan?: AggregatePlan;
  /** plan: a count's resolved filter and row view. */
  countPlan?: CountPlan;
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
  /** handler, read: what a replacement or custom handler returned, or the built-in list read's page. */
  result?: unknown;
  /** The fields a write changed, when it knows them better than a before/after comparison. */
  changed?: readonly string[];
  /** Other entities whose cached reads the write made stale. */
  touches?: readonly string[];
  /** input: what the body writes through nested relations (`relations.<name>.write.nested`), when it names any. */
  nested?: NestedPlan;
  /** items: each batch item's nested writes (undefined for an item that names none), in input order. */
  nestedItems?: (NestedPlan | undefined)[];
  /** An operation's own working value (a JSON Patch document, a member change). */
  work?: unknown;
  /** A batch's items: each body as its slot admits it (with `set` merged for creates), in input order. */
  items?: Row[];
  /** A batch's client filter, resolved against the allowlist: which rows it changes. */
  filter?: FilterNode;
  /** guard: the rows a batch's filter matched inside the caller's scope, locked, each passed by the policy. */
  matched?: Row[];
  /** createRows: a batch's rows as it is about to write them, in input order (what a unique violation is traced to). */
  planned?: PlannedRowWrite[];
  /** A batch's writes, one per changed row, in input (or key) order. */
  written?: BatchRowWrite[];
  /** output: what the call answers. */
  response?: ExecuteResponse;
}

export type FlowKey = keyof FlowState;

/**
 * One row a batch answers: its key, the row before (null: created) and after (null: deleted), and its event (none for
 * a row an upsert matched and kept as it was).
 */
export interface BatchRowWrite {
  readonly key: EntityKey;
  readonly before: Row | null;
  readonly after: Row | null;
  readonly event?: RealtimeEventId;
}

/**
 * One row a batch is about to write, kept so that a unique violation can be traced to its item once the batch has
 * rolled back: the item's index, the values the row will hold (a matched row's own, with the item's change over
 * them), the fields the write sets, and the key of the row it changes (none for a row it creates).
 */
export interface PlannedRowWrite {
  readonly index: number;
  readonly values: Row;
  readonly sets: readonly string[];
  readonly key?: EntityKey;
}

/**
 * The phases of an operation, in the order they run (`checkPhases` holds every list to it): refuse a request the
 * operation cannot take (`gate`), read the id, the body and the query (`input`), settle the call before any row is
 * read: the policy asked without a row, the query gate, the read resolved (`plan`), find the addressed rows in scope,
 * locked for a write, and ask the policy about them (`guard`), read or write (`act`), read the row back (`reread`),
 * record the outcome (`record`), make the response (`respond`), then the after-commit step and the output check. A
 * step every operation takes is placed by its phase (`withPhase`).
 */
export const PHASES = [
  'gate',
  'input',
  'plan',
  'guard',
  'act',
  'reread',
  'record',
  'respond',
  'afterCommit',
  'verify',
] as const;
export type Phase = (typeof PHASES)[number];

/** The fields given whatever their value: a handler may return nothing. */
type GivenAsIs = 'result';

/** The state as a stage that needs `N` sees it: those fields given (neither undefined nor null, but `result`). */
export type StateWith<N extends FlowKey> = FlowState & {
  [K in N]-?: K extends GivenAsIs ? FlowState[K] : NonNullable<FlowState[K]>;
};

export interface Stage {
  readonly name: string;
  readonly phase: Phase;
  /** The state it reads, which an earlier stage must give. */
  readonly needs: readonly FlowKey[];
  /** The state it gives to the stages after it. */
  readonly gives: readonly FlowKey[];
  /** Runs even when an earlier stage failed (the after-commit step: whatever committed is after-committed). */
  readonly always?: boolean;
  /** Always throws (a refusal): no stage after it runs, so it leaves nothing to give. */
  readonly refuses?: boolean;
  /** The stages it runs inside it (a transaction, a result cache), for the list a reader or a test sees. */
  readonly inner?: readonly Stage[];
  /** A branch's other list, run when its test fails. */
  readonly otherwise?: readonly Stage[];
  /** What it gives its inner stages only (a transaction's session, which ends with it). */
  readonly lends?: readonly FlowKey[];
  /** A branch's: what its test proves given when it passes (`byId`: the lookup), for its first list. */
  readonly proves?: readonly FlowKey[];
  /** How the state after it follows from its inner stages: all of them ran, or (a cache hit) perhaps none. */
  readonly innerGives?: 'all' | 'declared';
  run(call: OperationCall, state: FlowState): void | Promise<void>;
}

export interface StageSpec<N extends FlowKey, G extends FlowKey> {
  readonly phase: Phase;
  readonly needs?: readonly N[];
  readonly gives?: readonly G[];
  readonly always?: boolean;
  readonly refuses?: boolean;
}

/**
 * A named stage in its phase, with what it needs and gives. `run` sees the needed fields as given: the check made when
 * the list is resolved (`checkStages`) is what makes that so.
 */
export function stage<N extends FlowKey = never, G extends FlowKey = never>(
  name: string,
  spec: StageSpec<N, G>,
  run: (call: OperationCall, state: StateWith<N>) => void | Promise<void>,
): Stage {
  return {
    name,
    phase: spec.phase,
    needs: spec.needs ?? [],
    gives: spec.gives ?? [],
    ...(spec.always ? { always: true } : {}),
    ...(spec.refuses ? { refuses: true } : {}),
    run: run as Stage['run'],
  };
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
    phase: 'act',
    needs: [],
    gives: [],
    lends: ['session'],
    inner,
    innerGives: 'all',
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
 * If-Match header). Choices that the configuration alone decides are made when the list is resolved. What the stages
 * after it may read is what both branches give.
 */
export function branch<N extends FlowKey = never>(
  name: string,
  spec: { readonly needs?: readonly N[]; readonly proves?: readonly FlowKey[] },
  test: (call: OperationCall, state: StateWith<N>) => boolean | Promise<boolean>,
  then: readonly Stage[],
  otherwise: readonly Stage[],
): Stage {
  return {
    name,
    phase: 'act',
    needs: spec.needs ?? [],
    gives: [],
    inner: then,
    otherwise,
    ...(spec.proves ? { proves: spec.proves } : {}),
    innerGives: 'all',
    run: async (call, state) => runStages(call, (await test(call, state as StateWith<N>)) ? then : otherwise, state),
  };
}

/**
 * Checks that every stage's needs are given by an earlier stage (inner stages see what their enclosing stage gives,
 * a branch gives what both of its lists give), and throws naming the stage, the need, and the stage that gives it too
 * late. Returns what the list gives, or `ENDS` for a list that always ends in a refusal (nothing after it runs).
 */
export function checkStages(
  operation: string,
  stages: readonly Stage[],
  given: ReadonlySet<FlowKey> = new Set(),
  /** The stages after the enclosing one, where a stage that gives a need too late may be. */
  after: readonly Stage[] = [],
): Set<FlowKey> | typeof ENDS {
  const have = new Set(given);
  for (const [index, current] of stages.entries()) {
    if (current.refuses) return ENDS;
    for (const need of current.needs) {
      if (have.has(need)) continue;
      const late = flatten([...stages.slice(index + 1), ...after]).find((later) => later.gives.includes(need));
      throw new Error(
        `${operation}: the stage '${current.name}' needs '${need}', which no stage before it gives` +
          (late ? `; '${late.name}' gives it, after it. Put '${late.name}' before '${current.name}'.` : '.'),
      );
    }
    const inside = new Set([...have, ...current.gives, ...(current.lends ?? [])]);
    if (current.inner) {
      const rest = [...stages.slice(index + 1), ...after];
      const then = checkStages(operation, current.inner, new Set([...inside, ...(current.proves ?? [])]), rest);
      const both = current.otherwise ? intersect(then, checkStages(operation, current.otherwise, inside, rest)) : then;
      if (current.innerGives === 'all') {
        if (both === ENDS) return ENDS;
        for (const key of both) have.add(key);
      }
    }
    for (const key of current.gives) have.add(key);
    for (const key of current.lends ?? []) have.delete(key);
  }
  return have;
}

/** Where a list is resolved, for the error that stops the boot: the entity and the operation's config path. */
export interface StageListSite {
  readonly entity: string;
  readonly path: string;
}

/**
 * Checks that the phases never go back as the stages run (inner stages where their enclosing stage stands, each of a
 * branch's lists from the stage before it), and throws naming the two stages out of order.
 */
export function checkPhases(site: StageListSite, stages: readonly Stage[]): void {
  lastToRun(site, stages, undefined);
}

/** The last stage to run of `stages`, run after `before`, once each is checked not to be of an earlier phase. */
function lastToRun(site: StageListSite, stages: readonly Stage[], before: Stage | undefined): Stage | undefined {
  let last = before;
  for (const current of stages) {
    if (current.inner) {
      const then = lastToRun(site, current.inner, last);
      const otherwise = current.otherwise ? lastToRun(site, current.otherwise, last) : then;
      last = rank(otherwise) > rank(then) ? otherwise : then;
      continue;
    }
    if (last && rank(current) < rank(last)) {
      throw new ConfigurationException({
        ...site,
        message:
          `runs the stage '${current.name}' (${current.phase}) after '${last.name}' (${last.phase}), but the phases ` +
          `run in the order ${PHASES.join(', ')}. Put '${current.name}' before '${last.name}', or declare the phase it runs in.`,
      });
    }
    last = current;
  }
  return last;
}

function rank(current: Stage | undefined): number {
  return current ? PHASES.indexOf(current.phase) : -1;
}

function flatten(stages: readonly Stage[]): Stage[] {
  return stages.flatMap((current) => [current, ...flatten(current.inner ?? []), ...flatten(current.otherwise ?? [])]);
}

/** What a list that always refuses gives: it never hands anything on, so it constrains nothing after it. */
export const ENDS = 'ends';

/** What the stages after a branch may read: what both of its lists give (a list that refuses gives the other's). */
function intersect(a: Set<FlowKey> | typeof ENDS, b: Set<FlowKey> | typeof ENDS): Set<FlowKey> | typeof ENDS {
  if (a === ENDS) return b;
  if (b === ENDS) return a;
  return new Set([...a].filter((key) => b.has(key)));
}

/** Inserts a step every operation takes at its phase: after the last stage of the same or an earlier phase. */
export function withPhase(stages: readonly Stage[], step: Stage): Stage[] {
  const order = (current: Stage) => PHASES.indexOf(current.phase);
  const at = stages.findIndex((current) => order(current) > order(step));
  return at === -1 ? [...stages, step] : [...stages.slice(0, at), step, ...stages.slice(at)];
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
