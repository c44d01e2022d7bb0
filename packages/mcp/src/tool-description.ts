/** The description of each tool, written from the entity's description so it says what the tool really takes. */
import type { EntityDescription } from '@svc/core';
import type { ToolOperation } from './tool-input-schema';

function list(names: readonly string[]): string {
  return names.length > 0 ? names.join(', ') : 'none';
}

/** The required fields of a slot, a required reference and its foreign-key column as `a or b`. */
function requiredText(write: EntityDescription['write']['create']): string {
  return list([...write.required, ...write.requiredOneOf.map(([reference, column]) => `${reference} or ${column}`)]);
}

function findManyText(description: EntityDescription): string {
  const { name, pagination } = description;
  const parts = [`List ${name} rows.`];
  if (description.filter.fields.length > 0)
    parts.push(`Filter on ${list(description.filter.fields.map((field) => field.name))}.`);
  if (!pagination.ownsSort && description.sort.fields.length > 0)
    parts.push(`Sort by ${list(description.sort.fields)}.`);
  if (description.include.relations.length > 0)
    parts.push(`Include ${list(description.include.relations.map((relation) => relation.name))}.`);
  if (description.search) parts.push(`Search text in ${list(description.search.fields)}.`);
  parts.push(
    pagination.strategy === 'none'
      ? 'Returns every match.'
      : `Pages with limit (default ${pagination.defaultLimit}, at most ${pagination.maxLimit}) and offset; total counts the match set.`,
  );
  return parts.join(' ');
}

/** One or two sentences: what the call does to which entity, and what it takes. */
export function toolDescriptionOf(description: EntityDescription, operation: ToolOperation): string {
  const { name } = description;
  const key = description.lookup.fields.join(', ');
  switch (operation) {
    case 'findMany':
      return findManyText(description);
    case 'findOne':
      return `Read one ${name} by its ${key}.`;
    case 'createOne':
      return `Create a ${name} from data (required: ${requiredText(description.write.create)}); returns the stored row.`;
    case 'updateOne':
      return `Replace the writable fields of the ${name} with ${key} id: a field left out of data is reset to its default.`;
    case 'patchOne':
      return `Change some fields of the ${name} with ${key} id; fields left out of data keep their values.`;
    case 'deleteOne':
      return description.softDelete
        ? `Delete the ${name} with ${key} id (a soft delete: restore brings it back).`
        : `Delete the ${name} with ${key} id, permanently.`;
    case 'restoreOne':
      return `Restore the deleted ${name} with ${key} id.`;
    case 'purgeOne':
      return `Remove a deleted ${name} permanently (delete it first).`;
  }
}
