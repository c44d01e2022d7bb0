/**
 * Validation rules that bound what one operation selects once its fragments are expanded (a fragment counts each
 * time it is spread): how many fields, every alias and introspection field included, and how many of them are
 * aliased. The root-field limit bounds how many operations a request runs; these bound the answer it can ask for, so
 * two thousand aliases of `__schema { types { ...T } }`, or three hundred of one large column, are refused before
 * anything runs instead of answering tens of megabytes. GraphiQL's own introspection query selects about 200 fields
 * and no alias.
 */
import {
  GraphQLError,
  Kind,
  type FieldNode,
  type FragmentDefinitionNode,
  type OperationDefinitionNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

/** The default bound of `createSvcGraphqlHandler`. */
export const DEFAULT_MAX_FIELDS = 1000;
/** The default bound of `createSvcGraphqlHandler`: every root field may have an alias of its own. */
export const DEFAULT_MAX_ALIASES = 20;

/** Refuses (before anything runs) an operation that selects more than `max` fields with its fragments expanded. */
export function maxFieldsRule(max: number = DEFAULT_MAX_FIELDS): ValidationRule {
  return countingRule(
    max,
    () => true,
    `The operation selects more than ${max} fields once its fragments are expanded (aliases and introspection ` +
      `fields included); the limit is ${max} (maxFields). Ask for fewer fields, or split it into several requests.`,
  );
}

/**
 * Refuses (before anything runs) an operation with more than `max` aliased fields (an alias other than the field's
 * own name) once its fragments are expanded. Each alias repeats a field in the answer, so this bounds how many times
 * one column's values can be sent in one answer.
 */
export function maxAliasesRule(max: number = DEFAULT_MAX_ALIASES): ValidationRule {
  return countingRule(
    max,
    (field) => field.alias !== undefined && field.alias.value !== field.name.value,
    `The operation gives more than ${max} fields an alias once its fragments are expanded; the limit is ${max} ` +
      '(maxAliases). Select each field once, or split the request into several.',
  );
}

/** The error every operation bound reports: a request error (400 before anything runs) naming the limit. */
export function operationLimitError(operation: OperationDefinitionNode, message: string): GraphQLError {
  return new GraphQLError(message, { nodes: operation, extensions: { code: 'SVC_QUERY_INVALID' } });
}

/** A rule reporting `message` when more than `max` fields of an operation, fragments expanded, are `counted`. */
function countingRule(max: number, counted: (field: FieldNode) => boolean, message: string): ValidationRule {
  return (context) => ({
    OperationDefinition(operation) {
      if (expandedCount(context, operation, counted, max) > max) {
        context.reportError(operationLimitError(operation, message));
      }
    },
  });
}

/** How many fields of `operation` are `counted`, fragments expanded; stops counting once past `max`. */
function expandedCount(
  context: ValidationContext,
  operation: OperationDefinitionNode,
  counted: (field: FieldNode) => boolean,
  max: number,
): number {
  // A fragment's expanded count, once per operation: a fragment spread twice in each of two fragments is counted as
  // the sum it expands to, without walking it again.
  const sizes = new Map<string, number>();
  const countOf = (set: SelectionSetNode, open: Set<string>): number => {
    let count = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        count += (counted(selection) ? 1 : 0) + (selection.selectionSet ? countOf(selection.selectionSet, open) : 0);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        count += countOf(selection.selectionSet, open);
      } else {
        count += fragmentCount(context.getFragment(selection.name.value), open);
      }
      // Past the limit the exact figure no longer matters, and the sum can grow without bound.
      if (count > max) return count;
    }
    return count;
  };
  const fragmentCount = (fragment: FragmentDefinitionNode | null | undefined, open: Set<string>): number => {
    if (!fragment) return 0;
    const name = fragment.name.value;
    const known = sizes.get(name);
    if (known !== undefined) return known;
    // A cycle is graphql-js's own validation error (NoFragmentCycles); it counts nothing here.
    if (open.has(name)) return 0;
    open.add(name);
    const size = countOf(fragment.selectionSet, open);
    open.delete(name);
    sizes.set(name, size);
    return size;
  };
  return countOf(operation.selectionSet, new Set());
}
