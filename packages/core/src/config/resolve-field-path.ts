/** Resolves a field path of a config list: an own column, or one relation hop to a column of the related entity. */
import { ConfigurationException } from '../errors/configuration-exception';
import type { ColumnMetadata, EntityMetadata } from '../persistence/entity-metadata';
import { suggestion } from './did-you-mean';

/**
 * Whether the database can compare `column` by its name, so a default filter, sort, search or aggregate list may take
 * it: not a virtual one (a query's result). A column of an embedded class is compared by its path (`address.city`).
 */
export function comparableColumn(column: ColumnMetadata): boolean {
  return !column.virtual;
}

/**
 * The relation a field path crosses (`author` of `author.name`), or undefined where the field is an own column: one
 * without a dot, or a column of an embedded class, which is named by its path (`address.city`) and never shares its
 * first part with a relation.
 */
export function relationOfPath(field: string, ownColumns: { has(name: string): boolean }): string | undefined {
  const dot = field.indexOf('.');
  return dot === -1 || ownColumns.has(field) ? undefined : field.slice(0, dot);
}

/** Describes another entity (the adapter's `metadataOf`), so relation paths can be checked at bootstrap. */
export type RelatedMetadata = (target: Function) => EntityMetadata;

export interface FieldPathArgs {
  readonly entity: string;
  readonly metadata: EntityMetadata;
  /** Key path of the config list, for the error. */
  readonly path: string;
  readonly related?: RelatedMetadata;
}

export function resolveFieldPath(name: string, args: FieldPathArgs): ColumnMetadata {
  const { entity, metadata, path } = args;
  const fail = (message: string): never => {
    throw new ConfigurationException({ entity, path, message });
  };
  const virtual = (column: ColumnMetadata, owner: string) =>
    column.virtual
      ? fail(`'${name}' is a virtual column of ${owner}, a query's result, which the database cannot compare.`)
      : column;
  const dot = name.indexOf('.');
  // An own column first: one of an embedded class is named by a path too (`address.city`).
  const own = metadata.columns.find((candidate) => candidate.property === name);
  if (own) return virtual(own, entity);
  if (dot === -1)
    return fail(
      `'${name}' is not a column of ${entity}.${suggestion(
        name,
        metadata.columns.map((c) => c.property),
      )}`,
    );
  const head = name.slice(0, dot);
  const tail = name.slice(dot + 1);
  const relation = metadata.relations.find((candidate) => candidate.property === head);
  if (!relation)
    return fail(
      `'${head}' in '${name}' is not a relation of ${entity}.${suggestion(
        head,
        metadata.relations.map((r) => r.property),
      )}`,
    );
  if (!args.related)
    return fail(`'${name}' is a relation path, and the repository adapter cannot describe related entities.`);
  const target = args.related(relation.target);
  // The target's column, one of an embedded class by its path too (`owner.address.city`).
  const column = target.columns.find((candidate) => candidate.property === tail);
  if (column) return virtual(column, target.name);
  if (tail.includes('.'))
    return fail(`'${name}' crosses more than one relation; a path may take one hop (relation.field).`);
  return (
    column ??
    fail(
      `'${tail}' is not a column of ${target.name}.${suggestion(
        tail,
        target.columns.map((c) => c.property),
      )}`,
    )
  );
}
