/** The description of each tool, written from the entity's description so it says what the tool really takes. */
import type { EntityDescription, OperationDescription } from '@svc/core';

function list(names: readonly string[]): string {
  return names.length > 0 ? names.join(', ') : 'none';
}

/** What a list call can do with the entity: its filter, sort, include, search and paging. */
function listText(description: EntityDescription): string[] {
  const { pagination } = description;
  const parts: string[] = [];
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
  return parts;
}

/** One or two sentences: what the call does to which entity, and what it takes. */
export function toolDescriptionOf(description: EntityDescription, operation: OperationDescription): string {
  const sentence = operation.wording?.sentence ?? operation.summary;
  return operation.query === 'list' ? [sentence, ...listText(description)].join(' ') : sentence;
}
