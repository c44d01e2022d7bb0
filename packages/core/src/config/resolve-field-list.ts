/** Resolves the shared field-list shape (array, or `{ exclude }`) against the names it may draw from. */
import { ConfigurationException } from '../errors/configuration-exception';
import { suggestion } from './did-you-mean';
import type { FieldList } from './entity-config';
import { isPlainObject } from './validate-settings';

export interface FieldListArgs {
  readonly entity: string;
  readonly path: string;
  readonly list: FieldList | undefined;
  /** Every name the list may draw from, in order; also the result when the list is unset. */
  readonly universe: readonly string[];
  /** Result when the list is unset. @default universe */
  readonly unset?: readonly string[];
}

/** The allowed names, in universe order for `{ exclude }` and in the list's order for an array. */
export function resolveFieldList({ entity, path, list, universe, unset }: FieldListArgs): string[] {
  const check = (name: unknown, where: string) => {
    if (typeof name !== 'string' || !universe.includes(name)) {
      throw new ConfigurationException({
        entity,
        path: where,
        message: `'${String(name)}' is not a field here.${suggestion(String(name), universe)}`,
      });
    }
    return name;
  };
  if (list === undefined) return [...(unset ?? universe)];
  if (Array.isArray(list)) return list.map((name) => check(name, path));
  if (isPlainObject(list) && Array.isArray(list.exclude)) {
    const excluded = new Set(list.exclude.map((name) => check(name, `${path}.exclude`)));
    return universe.filter((name) => !excluded.has(name));
  }
  throw new ConfigurationException({ entity, path, message: 'must be an array of field names or { exclude: [...] }.' });
}
