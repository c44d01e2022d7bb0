/** `select`: the readable fields (which also close every response body), the default projection and `apply`. */
import type { ApplyArgs, FieldList, SelectConfigInput } from '../config/entity-config';

export type { SelectConfigInput };
import { resolveFieldList } from '../config/resolve-field-list';
import { relationOfPath } from '../config/resolve-field-path';
import { ConfigurationException } from '../errors/configuration-exception';
import type { EntityMetadata } from '../persistence/entity-metadata';
import type { QueryErrors } from '../errors/query-errors';
import { suggestion } from '../config/did-you-mean';

export interface SelectConfig {
  /** Selectable fields in column order: the only fields any response serves. */
  readonly fields: readonly string[];
  readonly fieldSet: ReadonlySet<string>;
  readonly default?: readonly string[];
  readonly apply?: SelectConfigInput['apply'];
}

export function buildSelectConfig(
  entity: string,
  metadata: EntityMetadata,
  input: SelectConfigInput | undefined,
): SelectConfig {
  const columns = metadata.columns.map((column) => column.property);
  const own = new Set(columns);
  for (const name of listed(input?.fields)) {
    if (relationOfPath(name, own) !== undefined) {
      throw new ConfigurationException({
        entity,
        path: 'select.fields',
        message: `'${name}' is a relation path; select.fields is depth 1. Project an included relation with select[<relation>]= against its own select.fields.`,
      });
    }
  }
  // A hidden column (the ORM's `select: false`) is served only when an array lists it by name: the default and an
  // `{ exclude }` list leave it out, as the ORM's own reads do.
  const hidden = new Set(metadata.columns.filter((column) => column.hidden).map((column) => column.property));
  const listedByName = Array.isArray(input?.fields);
  const fields = resolveFieldList({ entity, path: 'select.fields', list: input?.fields, universe: columns }).filter(
    (name) => listedByName || !hidden.has(name),
  );
  const fieldSet = new Set(fields);
  if (input?.default !== undefined) {
    if (!Array.isArray(input.default))
      throw new ConfigurationException({ entity, path: 'select.default', message: 'must be an array of field names.' });
    for (const name of input.default) {
      if (!fieldSet.has(name))
        throw new ConfigurationException({
          entity,
          path: 'select.default',
          message: `'${name}' is not on select.fields.${suggestion(name, fields)}`,
        });
    }
  }
  if (input?.apply !== undefined && typeof input.apply !== 'function') {
    throw new ConfigurationException({
      entity,
      path: 'select.apply',
      message: 'must be a function (args) => field names.',
    });
  }
  return { fields, fieldSet, default: input?.default, apply: input?.apply };
}

/** The projection of one read: the client's `select` (or the default, or everything), plus what `apply` adds. */
export async function resolveSelect(
  config: SelectConfig,
  requested: string | undefined,
  errors: QueryErrors,
  args: ApplyArgs & { entity: string },
  outputFields?: readonly string[],
): Promise<readonly string[]> {
  if (outputFields) return narrowOutput(config, requested, outputFields, errors);
  let chosen: readonly string[] = config.default ?? config.fields;
  if (requested !== undefined) {
    const names = requested.split(',').map((name) => name.trim());
    const valid = names.filter((name) => {
      if (config.fieldSet.has(name)) return true;
      errors.add(
        'select',
        'field_not_selectable',
        `'${name}' is not a selectable field.${suggestion(name, config.fields)}`,
      );
      return false;
    });
    chosen = valid;
  }
  const added = config.apply ? await config.apply(args) : undefined;
  if (!added || added.length === 0)
    return chosen === config.fields ? config.fields : inColumnOrder(config, new Set(chosen));
  for (const name of added) {
    if (!config.fieldSet.has(name)) {
      throw new ConfigurationException({
        entity: args.entity,
        path: 'select.apply',
        message: `returned '${name}', which is not on select.fields.`,
      });
    }
  }
  return inColumnOrder(config, new Set([...chosen, ...added]));
}

/** An output slot replaces the projection; `select=` may still narrow it (names checked against select.fields). */
function narrowOutput(
  config: SelectConfig,
  requested: string | undefined,
  output: readonly string[],
  errors: QueryErrors,
): readonly string[] {
  if (requested === undefined) return output;
  const names = new Set(requested.split(',').map((name) => name.trim()));
  for (const name of names) {
    if (!config.fieldSet.has(name) && !output.includes(name)) {
      errors.add('select', 'field_not_selectable', `'${name}' is not a selectable field.${suggestion(name, output)}`);
    }
  }
  return output.filter((name) => names.has(name));
}

function inColumnOrder(config: SelectConfig, chosen: ReadonlySet<string>): string[] {
  return config.fields.filter((name) => chosen.has(name));
}

function listed(list: FieldList | undefined): readonly string[] {
  if (list === undefined) return [];
  return Array.isArray(list) ? list : ((list as { exclude?: readonly string[] }).exclude ?? []);
}
