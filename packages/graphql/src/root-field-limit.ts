/**
 * A validation rule that bounds how many root fields one operation selects. Each Svc root field runs at least one
 * read or write, so a request of a thousand aliased `books` fields would be a thousand reads; the include limits
 * bound what one field loads, this bounds how many fields one request runs.
 */
import { Kind, type SelectionSetNode, type ValidationRule } from 'graphql';
import { operationLimitError } from './operation-field-limit';

/** The default bound of `createSvcGraphqlHandler`. */
export const DEFAULT_MAX_ROOT_FIELDS = 20;

/** Refuses (before anything runs) an operation with more than `max` root fields, fragments counted in. */
export function maxRootFieldsRule(max: number = DEFAULT_MAX_ROOT_FIELDS): ValidationRule {
  return (context) => ({
    OperationDefinition(operation) {
      const count = countFields(operation.selectionSet, (name) => context.getFragment(name)?.selectionSet, new Set());
      if (count > max) {
        context.reportError(
          operationLimitError(
            operation,
            `The operation selects ${count} root fields; the limit is ${max}. Split it into several requests.`,
          ),
        );
      }
    },
  });
}

function countFields(
  set: SelectionSetNode,
  fragment: (name: string) => SelectionSetNode | undefined,
  seen: Set<string>,
): number {
  let count = 0;
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      // Introspection fields run no Svc operation.
      if (!selection.name.value.startsWith('__')) count++;
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      count += countFields(selection.selectionSet, fragment, seen);
    } else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const inner = fragment(selection.name.value);
      if (inner) count += countFields(inner, fragment, seen);
    }
  }
  return count;
}
