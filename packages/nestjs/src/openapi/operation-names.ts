/**
 * The names an OpenAPI document gives Svc's operations: `operationId`s that read as a call (`findManyBooks`,
 * `patchOneBook`, `addBookTags`) and stay the same from build to build. Their summaries are the description's.
 */
import { type OperationDescription } from '@svc/core';
import { pluralOf } from '@svc/core/spi';

function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

/** `tags` -> `Tags`, `order-lines` -> `OrderLines`. */
function pascal(name: string): string {
  return name
    .split(/[^A-Za-z0-9]+/)
    .filter((part) => part !== '')
    .map(capitalize)
    .join('');
}

/**
 * The operationId of an operation of `entity`: standard and custom ids ending in `One` or `Many` name the entity in
 * the singular or plural (`findOneBook`, `shortManyBooks`), other custom ids the entity as they stand
 * (`archiveBook`), relation operations their action and relation (`addBookTags`). `memberForm` is the
 * `DELETE /:id/<relation>/:memberId` shorthand of a removal.
 */
export function operationIdOf(entity: string, operation: OperationDescription, memberForm = false): string {
  if (operation.relation) {
    const base = `${operation.relation.action}${entity}${pascal(operation.relation.name)}`;
    return memberForm ? `${base}Member` : base;
  }
  if (operation.id.endsWith('Many')) return `${operation.id}${pluralOf(entity)}`;
  return `${operation.id}${entity}`;
}
