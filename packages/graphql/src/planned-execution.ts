/**
 * Queries executed from a plan rather than by a resolver per field. Svc's query fields answer rows the engine has
 * already read, scoped and shaped, and every field below them is a property of those rows (no resolver of its own).
 * For a query whose root fields are all resolved that way and whose selections carry no directive, the plan (which
 * property goes under which response key, and how each leaf is serialized) is worked out once per parsed document, in
 * `execution-plan.ts`. A run then calls the root fields' resolvers as graphql-js would and copies the selected
 * properties into the answer.
 *
 * Everything else is executed by graphql-js: mutations, introspection, `@skip`/`@include`, a field with a resolver,
 * abstract types. So is the completion of any run in which a resolver fails or a value is not what its type says (a
 * null where the type is non-null, a leaf its scalar refuses): graphql-js then answers with its own errors, paths and
 * null propagation, from the values the root resolvers already settled on. No resolver runs twice, so a guard counts
 * a call once, `onError` hears a failure once and a cost limit holds for the work done.
 *
 * Written here rather than taken from graphql-jit: graphql-jit compiles generated code per document (and stalled the
 * event loop on some of the GraphQL fuzz's documents), and it does not run on graphql 17, which the newest line uses.
 */
import {
  execute,
  getArgumentValues,
  getVariableValues,
  Kind,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLField,
  type GraphQLResolveInfo,
  type GraphQLSchema,
  type ValueNode,
} from 'graphql';
import { DECLINED, planOperation, type Entry, type Plan } from './execution-plan';

/** Plans by schema, document and operation name; `null` for an operation graphql-js executes. */
const plans = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string | undefined, Plan | null>>>();

/**
 * A graphql-js `execute` for schemas `buildSvcSchema` builds: a planned run where the operation has a plan, graphql-js's
 * own `execute` otherwise. `createSvcGraphqlHandler` uses it; another server can take it in place of `execute`.
 */
export function plannedExecute(args: ExecutionArgs): ReturnType<typeof execute> {
  // A resolver of the caller's own for fields without one changes what every property read gives: graphql-js runs it.
  if (args.fieldResolver || args.typeResolver) return execute(args);
  const plan = planFor(args);
  if (!plan) return execute(args);
  return run(plan, args);
}

function planFor(args: ExecutionArgs): Plan | null {
  let byDocument = plans.get(args.schema);
  if (!byDocument) plans.set(args.schema, (byDocument = new WeakMap()));
  let byName = byDocument.get(args.document);
  if (!byName) byDocument.set(args.document, (byName = new Map()));
  const name = args.operationName ?? undefined;
  let plan = byName.get(name);
  if (plan === undefined) {
    plan = planOperation(args);
    byName.set(name, plan);
  }
  return plan;
}

async function run(plan: Plan, args: ExecutionArgs): Promise<ExecutionResult> {
  const coerced = getVariableValues(
    args.schema,
    plan.operation.variableDefinitions ?? [],
    args.variableValues ?? {},
  ) as unknown as { errors?: unknown; coerced?: unknown; variableValues?: unknown };
  // graphql 16 answers `{ coerced }`, 17 `{ variableValues }`: each hands its own shape back to its resolvers.
  if (coerced.errors) return execute(args);
  const variables = (coerced.variableValues ?? coerced.coerced) as GraphQLResolveInfo['variableValues'];
  const order = { next: 0 };
  const outcomes = await Promise.all(
    plan.roots.map((root) => root.field && settle(() => resolveRoot(plan, args, root, root.field!, variables), order)),
  );
  try {
    const data: Record<string, unknown> = {};
    plan.roots.forEach((root, index) => {
      const outcome = outcomes[index];
      if (outcome?.failed) throw DECLINED;
      data[root.key] = root.complete(outcome?.value);
    });
    return { data };
  } catch {
    // A failed resolver or a value off the plan: graphql-js answers with its errors and their paths.
    return replay(plan, args, outcomes);
  }
}

/** What a root resolver settled on: its value, or what it threw or rejected with. */
interface Outcome {
  readonly value?: unknown;
  readonly failed?: true;
  readonly error?: unknown;
  /**
   * For a resolver that answered a promise, when it settled among the others (graphql-js reports failures in that
   * order); undefined for one that answered or threw at once.
   */
  readonly settled?: number;
}

async function settle(resolve: () => unknown, order: { next: number }): Promise<Outcome> {
  let answer: unknown;
  try {
    answer = resolve();
  } catch (error) {
    return { failed: true, error };
  }
  if (!isPromiseLike(answer)) return { value: answer };
  try {
    const value = await answer;
    return { value, settled: order.next++ };
  } catch (error) {
    return { failed: true, error, settled: order.next++ };
  }
}

function isPromiseLike(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/**
 * graphql-js executes the operation with each root field answering what its resolver already settled on. The root
 * fields' resolvers are swapped only while `execute` runs synchronously, which is when graphql-js calls them (nothing
 * else runs meanwhile); a root field called later than that (never, on graphql 16 and 17) runs its own resolver. A
 * resolver something else put in place meanwhile (an instrumentation wrapping the fields it finds) is left there: the
 * swapped one it wraps runs the field's own resolver from then on.
 */
function replay(
  plan: Plan,
  args: ExecutionArgs,
  outcomes: readonly (Outcome | undefined)[],
): ReturnType<typeof execute> {
  const byKey = new Map<string, Outcome>();
  plan.roots.forEach((root, index) => outcomes[index] && byKey.set(root.key, outcomes[index]));
  const swapped = new Map<GraphQLField<unknown, unknown>, [own: Resolver, settled: Resolver]>();
  for (const { field } of plan.roots) {
    if (!field || swapped.has(field)) continue;
    const own = field.resolve!;
    const settled: Resolver = (source, values, context, info) => {
      const outcome = byKey.get(info.path.key as string);
      if (!outcome) return own(source, values, context, info);
      byKey.delete(info.path.key as string);
      return answerOf(outcome);
    };
    swapped.set(field, [own, settled]);
    field.resolve = settled;
  }
  try {
    return execute(args);
  } finally {
    byKey.clear();
    for (const [field, [own, settled]] of swapped) if (field.resolve === settled) field.resolve = own;
  }
}

type Resolver = NonNullable<GraphQLField<unknown, unknown>['resolve']>;

/**
 * What the resolver answered, again: its value or throw, or a promise settling in the order the first run's did, a
 * turn of the event loop apart, so graphql-js meets the failures in the order it would have (the first to fail a
 * non-null field is the one reported) and, where a later one settled after its answer, does not wait for it.
 */
function answerOf(outcome: Outcome): unknown {
  if (outcome.settled === undefined) {
    if (outcome.failed) throw outcome.error;
    return outcome.value;
  }
  let turns = outcome.settled;
  const settle = () => (outcome.failed ? Promise.reject(outcome.error) : outcome.value);
  return new Promise<void>((resolve) => {
    const next = () => (turns-- > 0 ? setImmediate(next) : resolve());
    next();
  }).then(settle);
}

function resolveRoot(
  plan: Plan,
  args: ExecutionArgs,
  root: Entry,
  field: GraphQLField<unknown, unknown>,
  variables: GraphQLResolveInfo['variableValues'],
): unknown {
  const info = {
    fieldName: field.name,
    fieldNodes: root.nodes,
    returnType: field.type,
    parentType: plan.query,
    path: { prev: undefined, key: root.key, typename: plan.query.name },
    schema: args.schema,
    fragments: plan.fragments,
    rootValue: args.rootValue,
    operation: plan.operation,
    variableValues: variables,
  } as unknown as GraphQLResolveInfo;
  return field.resolve!(args.rootValue, argumentsOf(root, field, variables), args.contextValue, info);
}

/** The root field's coerced arguments, as graphql-js gives them; coerced once for a node that names no variable. */
function argumentsOf(
  root: Entry,
  field: GraphQLField<unknown, unknown>,
  variables: GraphQLResolveInfo['variableValues'],
): Record<string, unknown> {
  // A copy for each run, so a resolver that changes its arguments changes only its own.
  if (root.constantArgs) return copyOf(root.constantArgs);
  const node = root.nodes[0]!;
  const values = getArgumentValues(field, node, variables);
  // Only values the copy copies whole are kept: an input object or a list would be shared by every run.
  const constant =
    !node.arguments?.some((argument) => namesVariable(argument.value)) &&
    Object.values(values).every((value) => value === null || typeof value !== 'object');
  if (constant) root.constantArgs = copyOf(values);
  return values;
}

/** A shallow copy with the same prototype (graphql-js's arguments object, whichever it gives). */
function copyOf(values: Record<string, unknown>): Record<string, unknown> {
  return Object.assign(
    Object.create(Object.getPrototypeOf(values) as object | null) as Record<string, unknown>,
    values,
  );
}

function namesVariable(value: ValueNode): boolean {
  switch (value.kind) {
    case Kind.VARIABLE:
      return true;
    case Kind.LIST:
      return value.values.some(namesVariable);
    case Kind.OBJECT:
      return value.fields.some((field) => namesVariable(field.value));
    default:
      return false;
  }
}
