/**
 * The names an OpenAPI document gives Svc's operations: `operationId`s that read as a call (`findManyBooks`,
 * `patchOneBook`, `addBookTags`) and stay the same from build to build, and a one-line summary of each.
 */
import type { EntityDescription, OperationDescription } from '@svc/core';

/** An English plural, by the usual spelling rules: `Book` -> `Books`, `Category` -> `Categories`, `Box` -> `Boxes`. */
export function pluralOf(word: string): string {
  if (/[^aeiou]y$/i.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/i.test(word)) return `${word}es`;
  return `${word}s`;
}

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

/** `a Book`, `an Author`. */
function withArticle(word: string): string {
  return `${/^[aeiou]/i.test(word) ? 'an' : 'a'} ${word}`;
}

const STANDARD_SUMMARIES: Readonly<Record<string, (one: string, many: string) => string>> = {
  findMany: (_one, many) => `List ${many}`,
  findOne: (one) => `Read one ${one}`,
  createOne: (one) => `Create ${withArticle(one)}`,
  updateOne: (one) => `Replace ${withArticle(one)}`,
  patchOne: (one) => `Change fields of ${withArticle(one)}`,
  deleteOne: (one) => `Delete ${withArticle(one)}`,
  restoreOne: (one) => `Restore a deleted ${one}`,
  purgeOne: (one) => `Remove a deleted ${one} for good`,
};

const RELATION_SUMMARIES: Readonly<Record<string, (one: string, relation: string) => string>> = {
  list: (one, relation) => `List the ${relation} of ${withArticle(one)}`,
  add: (one, relation) => `Add ${relation} to ${withArticle(one)}`,
  replace: (one, relation) => `Replace the ${relation} of ${withArticle(one)}`,
  remove: (one, relation) => `Remove ${relation} from ${withArticle(one)}`,
};

/**
 * A one-line summary (`operations.<id>.meta.summary` wins). A custom operation's id is read as words, its entity
 * named after a closing `One` or `Many`: `publishOne` -> `Publish one Book`.
 */
export function summaryOf(description: EntityDescription, operation: OperationDescription): string {
  if (operation.docs?.summary) return operation.docs.summary;
  const one = description.name;
  const standard = STANDARD_SUMMARIES[operation.id];
  if (operation.standard && standard) return standard(one, pluralOf(one));
  if (operation.relation) {
    const relation = RELATION_SUMMARIES[operation.relation.action];
    if (relation) return relation(one, operation.relation.name);
  }
  const words = operation.id.replace(/([a-z0-9])([A-Z])/g, '$1 $2').toLowerCase();
  const sentence = words.charAt(0).toUpperCase() + words.slice(1);
  if (/ one$/.test(sentence)) return `${sentence} ${one}`;
  if (/ many$/.test(sentence)) return `${sentence} ${pluralOf(one)}`;
  return `${sentence} (${one})`;
}
