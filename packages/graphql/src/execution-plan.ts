/**
 * The plan of a query Svc executes itself (`planned-execution.ts`), worked out once per parsed document: which
 * property goes under which response key, and how each value completes; none where graphql-js must execute it.
 */
import {
  GraphQLBoolean,
  GraphQLFloat,
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  getOperationAST,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  type ExecutionArgs,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLField,
  type GraphQLLeafType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { DateTimeScalar } from './svc-scalars';
import { ROW_PROPERTY } from './object-types';

/** Turns a resolved value into its place in the answer; throws `DECLINED` where graphql-js must answer instead. */
type Completer = (value: unknown) => unknown;

/** Thrown (never reported) when a run leaves the plan: graphql-js executes the operation instead. */
export const DECLINED = Symbol('svc.planDeclined');

/** One response key of an object: the field it reads (by name; none for `__typename`) and how its value completes. */
export interface Entry {
  readonly key: string;
  readonly name: string;
  /** The row property the field's value is read from: its name, or the one its extensions give (`ROW_PROPERTY`). */
  readonly property?: string;
  readonly nodes: readonly FieldNode[];
  readonly field?: GraphQLField<unknown, unknown>;
  readonly complete: Completer;
  /** For a field of a scalar (nullable or not) that answers some values as they are: which values (`answeredAsIs`). */
  readonly asIs?: AsIs;
  /**
   * A root field's arguments when its node names no variable and they hold no input object or list: coerced on the
   * first run that gets them, then the same for every run (a copy of them is handed to each).
   */
  constantArgs?: Record<string, unknown>;
}

export interface Plan {
  readonly operation: OperationDefinitionNode;
  readonly query: GraphQLObjectType;
  readonly fragments: Record<string, FragmentDefinitionNode>;
  /** The root response keys in order; each but `__typename` is resolved by its field's own resolver. */
  readonly roots: readonly Entry[];
}

/** The plan of the operation, or null when graphql-js must execute it. */
export function planOperation(args: ExecutionArgs): Plan | null {
  const operation = getOperationAST(args.document, args.operationName);
  const query = args.schema.getQueryType();
  if (!operation || operation.operation !== 'query' || !query || operation.directives?.length) return null;
  const fragments: Record<string, FragmentDefinitionNode> = {};
  for (const definition of args.document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments[definition.name.value] = definition;
  }
  const roots = entriesOf(query, [operation.selectionSet], fragments, (field) => field.resolve !== undefined);
  return roots ? { operation, query, fragments, roots } : null;
}

/**
 * The entries of the fields selected on `type`, each with its completer; undefined when graphql-js must run the
 * selection (a directive, a fragment on another type, a field `planned` refuses, or a type no completer takes).
 */
function entriesOf(
  type: GraphQLObjectType,
  sets: readonly SelectionSetNode[],
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  planned: (field: GraphQLField<unknown, unknown>) => boolean,
): Entry[] | undefined {
  const selections = collect(type, sets, fragments);
  if (!selections) return undefined;
  const fields = type.getFields();
  const entries: Entry[] = [];
  for (const [key, nodes] of selections) {
    const name = nodes[0]!.name.value;
    if (name === '__typename') {
      entries.push({ key, name, nodes, complete: () => type.name });
      continue;
    }
    const field = fields[name];
    if (!field || !planned(field)) return undefined;
    const complete = completerOf(field.type, nodes, fragments);
    if (!complete) return undefined;
    const leaf = isNonNullType(field.type) ? field.type.ofType : field.type;
    const property = field.extensions[ROW_PROPERTY] as string | undefined;
    entries.push({
      key,
      name,
      nodes,
      field,
      complete,
      asIs: isLeafType(leaf) ? answeredAsIs(leaf) : undefined,
      ...(property === undefined ? {} : { property }),
    });
  }
  return entries;
}

/**
 * The fields selected on `parent`, fragments expanded, by response key in order of first appearance (as graphql-js
 * collects them); undefined when a selection carries a directive or a fragment names another type.
 */
function collect(
  parent: GraphQLObjectType,
  sets: readonly SelectionSetNode[],
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
  out: Map<string, FieldNode[]> = new Map(),
  spread: Set<string> = new Set(),
): Map<string, FieldNode[]> | undefined {
  for (const set of sets) {
    for (const selection of set.selections) {
      if (selection.directives?.length) return undefined;
      if (selection.kind === Kind.FIELD) {
        const key = selection.alias?.value ?? selection.name.value;
        // The answer's objects are plain: a `__proto__` key would set a prototype rather than hold a value.
        if (key === '__proto__') return undefined;
        const nodes = out.get(key);
        if (nodes) nodes.push(selection);
        else out.set(key, [selection]);
        continue;
      }
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments[selection.name.value];
      if (!fragment || fragment.directives?.length) return undefined;
      if (fragment.typeCondition && fragment.typeCondition.name.value !== parent.name) return undefined;
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        if (spread.has(selection.name.value)) continue;
        spread.add(selection.name.value);
      }
      if (!collect(parent, [fragment.selectionSet], fragments, out, spread)) return undefined;
    }
  }
  return out;
}

function completerOf(
  type: GraphQLOutputType,
  nodes: readonly FieldNode[],
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
): Completer | undefined {
  if (isNonNullType(type)) {
    const inner = completerOf(type.ofType, nodes, fragments);
    return (
      inner &&
      ((value) => {
        const completed = inner(value);
        if (completed === null || completed === undefined) throw DECLINED;
        return completed;
      })
    );
  }
  if (isListType(type)) {
    const inner = completerOf(type.ofType, nodes, fragments);
    return (
      inner &&
      ((value) => {
        if (value === null || value === undefined) return null;
        if (!Array.isArray(value)) throw DECLINED;
        return value.map(inner);
      })
    );
  }
  if (isLeafType(type)) return leafCompleter(type);
  if (isObjectType(type)) return objectCompleter(type, nodes, fragments);
  return undefined;
}

function leafCompleter(type: GraphQLLeafType): Completer {
  // graphql 17 coerces output with `coerceOutputValue` (`serialize` is its deprecated alias); graphql 16 has `serialize`.
  const modern = (type as { coerceOutputValue?: (value: unknown) => unknown }).coerceOutputValue;
  const coerce = modern ? modern.bind(type) : type.serialize.bind(type);
  const asIs = answeredAsIs(type);
  return (value) => {
    if (value === null || value === undefined) return null;
    if (asIs !== undefined && answersAsIs(asIs, value)) return value;
    const serialized = coerce(value);
    // graphql-js reports a scalar that serializes to null or undefined as an error of the field.
    if (serialized === undefined || serialized === null) throw DECLINED;
    return serialized;
  };
}

/** Which values a scalar's coercion answers unchanged: text, booleans, 32-bit whole numbers, finite numbers. */
type AsIs = 'text' | 'boolean' | 'int' | 'float';

/**
 * For GraphQL's own scalars and `DateTime`, the values their coercion answers unchanged. A row's values nearly always
 * are, and the test spares the scalar's call (and, for the built-in ones, their look for a `valueOf`). An ID that is a
 * whole number still goes through the scalar, which writes it as text.
 */
function answeredAsIs(type: GraphQLLeafType): AsIs | undefined {
  if (type === GraphQLString || type === GraphQLID || type === DateTimeScalar) return 'text';
  if (type === GraphQLBoolean) return 'boolean';
  if (type === GraphQLInt) return 'int';
  if (type === GraphQLFloat) return 'float';
  return undefined;
}

function answersAsIs(kind: AsIs, value: unknown): boolean {
  switch (kind) {
    case 'text':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'int':
      return Number.isInteger(value) && (value as number) <= MAX_INT && (value as number) >= MIN_INT;
    case 'float':
      return Number.isFinite(value);
  }
}

const MAX_INT = 2147483647;

const MIN_INT = -2147483648;

function objectCompleter(
  type: GraphQLObjectType,
  nodes: readonly FieldNode[],
  fragments: Readonly<Record<string, FragmentDefinitionNode>>,
): Completer | undefined {
  if (type.isTypeOf) return undefined;
  const sets = nodes.flatMap((node) => (node.selectionSet ? [node.selectionSet] : []));
  // Below the root, a field is a row's property: one with a resolver or arguments of its own is graphql-js's to run.
  const entries = entriesOf(
    type,
    sets,
    fragments,
    (field) => (!field.resolve || field.extensions[ROW_PROPERTY] !== undefined) && field.args.length === 0,
  );
  if (!entries) return undefined;
  return (value) => {
    if (value === null || value === undefined) return null;
    if (typeof value !== 'object') throw DECLINED;
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (let index = 0; index < entries.length; index++) {
      const entry = entries[index]!;
      const property = source[entry.property ?? entry.name];
      // A row's value its scalar answers unchanged (most of them) is copied without a call.
      if (entry.asIs !== undefined && answersAsIs(entry.asIs, property)) {
        out[entry.key] = property;
        continue;
      }
      // graphql-js's default resolver calls a function it finds; rows hold none, so one is left to graphql-js. So is
      // an error a row holds in place of a value (a field refused the caller, `field-access.ts`): it reports it.
      if (typeof property === 'function' || property instanceof Error) throw DECLINED;
      out[entry.key] = entry.complete(property);
    }
    return out;
  };
}
