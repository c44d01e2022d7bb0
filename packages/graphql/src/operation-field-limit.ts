/**
 * A validation rule that bounds how many fields one operation selects once its fragments are expanded: every alias
 * and every introspection field counts, and a fragment counts each time it is spread. The root-field limit bounds
 * how many operations a request runs; this bounds the answer it can ask for, so two thousand aliases of
 * `__schema { types { ...T } }` are refused before anything runs instead of answering tens of megabytes. GraphiQL's
 * own introspection query selects about 200 fields.
 */
import { GraphQLError, Kind, type FragmentDefinitionNode, type SelectionSetNode, type ValidationRule } from 'graphql';

/** The default bound of `createSvcGraphqlHandler`. */
export const DEFAULT_MAX_FIELDS = 1000;

/** Refuses (before anything runs) an operation that selects more than `max` fields with its fragments expanded. */
export function maxFieldsRule(max: number = DEFAULT_MAX_FIELDS): ValidationRule {
  return (context) => {
    // A fragment's expanded size, once per document: a fragment spread twice in each of two fragments is counted as
    // the sum it expands to, without walking it again.
    const sizes = new Map<string, number>();
    const sizeOf = (set: SelectionSetNode, open: Set<string>): number => {
      let count = 0;
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          count += 1 + (selection.selectionSet ? sizeOf(selection.selectionSet, open) : 0);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          count += sizeOf(selection.selectionSet, open);
        } else {
          count += fragmentSize(context.getFragment(selection.name.value), open);
        }
        // Past the limit the exact figure no longer matters, and the sum can grow without bound.
        if (count > max) return count;
      }
      return count;
    };
    const fragmentSize = (fragment: FragmentDefinitionNode | null | undefined, open: Set<string>): number => {
      if (!fragment) return 0;
      const name = fragment.name.value;
      const known = sizes.get(name);
      if (known !== undefined) return known;
      // A cycle is graphql-js's own validation error (NoFragmentCycles); it counts nothing here.
      if (open.has(name)) return 0;
      open.add(name);
      const size = sizeOf(fragment.selectionSet, open);
      open.delete(name);
      sizes.set(name, size);
      return size;
    };
    return {
      OperationDefinition(operation) {
        const count = sizeOf(operation.selectionSet, new Set());
        if (count > max) {
          context.reportError(
            new GraphQLError(
              `The operation selects more than ${max} fields once its fragments are expanded (aliases and ` +
                `introspection fields included); the limit is ${max} (maxFields). Ask for fewer fields, or split it ` +
                'into several requests.',
              { nodes: operation, extensions: { code: 'SVC_QUERY_INVALID' } },
            ),
          );
        }
      },
    };
  };
}
