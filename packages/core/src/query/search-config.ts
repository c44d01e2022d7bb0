/** `search`: a term matched across string fields, as `contains` conditions (the term's `%` and `_` are literal). */
import type { FieldList, SearchConfigInput } from '../config/entity-config';

export type { SearchConfigInput };
import { comparableColumn, resolveFieldPath, type RelatedMetadata } from '../config/resolve-field-path';
import { resolveFieldList } from '../config/resolve-field-list';
import { ConfigurationException } from '../errors/configuration-exception';
import { isPlainObject } from '../config/validate-settings';
import { suggestion } from '../config/did-you-mean';
import type { EntityMetadata } from '../persistence/entity-metadata';
import type { FilterNode } from '../persistence/query-ast';
import type { QueryErrors } from '../errors/query-errors';
import type { SelectConfig } from './select-config';

export interface SearchConfig {
  readonly fields: readonly string[];
  readonly default?: string;
  readonly mode: 'substring' | 'words';
  readonly maxLength: number;
}

const KEYS = ['fields', 'default', 'mode', 'driver'];

export function buildSearchConfig(args: {
  entity: string;
  metadata: EntityMetadata;
  related?: RelatedMetadata;
  input: SearchConfigInput | false | undefined;
  maxLength: number;
  /** `select.fields`: a column it closes is searched only when listed, so a term cannot probe a hidden value. */
  select?: SelectConfig;
}): SearchConfig | undefined {
  const { entity, metadata, input } = args;
  if (input === undefined || input === false) return undefined;
  if (!isPlainObject(input))
    throw new ConfigurationException({
      entity,
      path: 'search',
      message: 'must be an object { fields?, default?, mode?, driver? } or false.',
    });
  for (const key of Object.keys(input)) {
    if (!KEYS.includes(key))
      throw new ConfigurationException({
        entity,
        path: `search.${key}`,
        message: `is not a known key.${suggestion(key, KEYS)}`,
      });
  }
  const strings = metadata.columns
    .filter((column) => column.kind === 'string' && comparableColumn(column))
    .map((column) => column.property);
  const list = input.fields as FieldList | undefined;
  // The default and the `{ exclude }` form draw from the string columns `select.fields` serves.
  const served = (name: string) => !args.select || args.select.fieldSet.has(name);
  const fields = Array.isArray(list)
    ? list
    : resolveFieldList({ entity, path: 'search.fields', list, universe: strings }).filter(served);
  for (const field of fields) {
    const column = resolveFieldPath(field, { entity, metadata, path: 'search.fields', related: args.related });
    if (column.kind !== 'string')
      throw new ConfigurationException({
        entity,
        path: 'search.fields',
        message: `'${field}' is not a string column; search matches text only.`,
      });
  }
  if (fields.length === 0)
    throw new ConfigurationException({
      entity,
      path: 'search.fields',
      message:
        'names no field; search would match nothing. Set search: false, or list the fields to search (the default ' +
        'and { exclude } draw from the string columns select.fields serves).',
    });
  if (input.mode !== undefined && input.mode !== 'substring' && input.mode !== 'words') {
    throw new ConfigurationException({ entity, path: 'search.mode', message: "must be 'substring' or 'words'." });
  }
  if (input.driver !== undefined && input.driver !== 'orm')
    throw new ConfigurationException({ entity, path: 'search.driver', message: "must be 'orm'." });
  if (input.default !== undefined && typeof input.default !== 'string')
    throw new ConfigurationException({ entity, path: 'search.default', message: 'must be a string.' });
  return { fields, default: input.default, mode: input.mode ?? 'substring', maxLength: args.maxLength };
}

/** The search condition for a term, or undefined for an empty term. */
export function resolveSearch(
  config: SearchConfig,
  term: string | undefined,
  errors: QueryErrors,
): FilterNode | undefined {
  const text = (term ?? config.default ?? '').trim();
  if (text.length === 0) return undefined;
  if (text.length > config.maxLength) {
    errors.add(
      'search[query]',
      'too_long',
      `search[query] is ${text.length} characters; the limit is ${config.maxLength}.`,
    );
    return undefined;
  }
  if (text.includes('\u0000')) {
    errors.add('search[query]', 'invalid_value', 'search[query] must not contain a NUL character.');
    return undefined;
  }
  const words = config.mode === 'words' ? text.split(/\s+/) : [text];
  const perWord = words.map((word): FilterNode => anyField(config.fields, word));
  return perWord.length === 1 ? perWord[0] : { kind: 'and', children: perWord };
}

function anyField(fields: readonly string[], value: string): FilterNode {
  const children = fields.map((field): FilterNode => ({ kind: 'condition', field, operator: 'contains', value }));
  return children.length === 1 ? children[0]! : { kind: 'or', children };
}
