/**
 * SQL an app writes into Svc's own statements (`computed` fields): text with every value bound as a parameter, and
 * the row's own columns named by their properties, which the adapter writes as its dialect quotes them.
 */

/**
 * The fragments and references this module made. Only they are SQL: an object that merely has their shape (a JSON
 * body the app interpolates, `{ "svcSql": true, ... }`) is a value like any other, and is bound.
 */
const made = new WeakSet<object>();

function mark<T extends object>(value: T): T {
  made.add(value);
  return Object.freeze(value);
}

/** A column of the row being read, named by its property: the adapter writes it qualified by the row's alias. */
export interface ColumnReference {
  readonly svcColumn: string;
}

/** A table named in a computed field's SQL: the adapter writes it as its ORM places it (its schema, quoted). */
export interface TableReference {
  readonly svcTable: string;
}

/** `table('favorites')`: a table (an entity's, or a join table) by its name, qualified as the database needs. */
export function table(name: string): TableReference {
  return mark({ svcTable: String(name) });
}

/** `column('id')`, as computed fields are given it: the row's own column by its property. */
export function columnReference(property: string): ColumnReference {
  return mark({ svcColumn: String(property) });
}

export function isTableReference(value: unknown): value is TableReference {
  return typeof value === 'object' && value !== null && made.has(value) && 'svcTable' in value;
}

/** Text pieces, with a value or a column reference between each two: what the `sql` tag makes. */
export interface SqlFragment {
  readonly svcSql: true;
  readonly strings: readonly string[];
  readonly values: readonly unknown[];
}

/**
 * `sql\`EXISTS (SELECT 1 FROM ${table('favorites')} f WHERE f.article_id = ${column('id')} AND f.user_id = ${userId})\``: every
 * interpolated value is bound as a parameter, never written into the text; `column(...)` names the row's own column
 * and `table(...)` a table.
 * A nested fragment is spliced in with its values still bound.
 */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlFragment {
  const pieces: string[] = [strings[0]!];
  const bound: unknown[] = [];
  values.forEach((value, index) => {
    if (isSqlFragment(value)) {
      pieces[pieces.length - 1] += value.strings[0]!;
      value.values.forEach((inner, at) => {
        bound.push(inner);
        pieces.push(value.strings[at + 1]!);
      });
      pieces[pieces.length - 1] += strings[index + 1]!;
      return;
    }
    bound.push(value);
    pieces.push(strings[index + 1]!);
  });
  return mark({ svcSql: true as const, strings: Object.freeze(pieces), values: Object.freeze(bound) });
}

export function isSqlFragment(value: unknown): value is SqlFragment {
  return typeof value === 'object' && value !== null && made.has(value) && 'svcSql' in value;
}

export function isColumnReference(value: unknown): value is ColumnReference {
  return typeof value === 'object' && value !== null && made.has(value) && 'svcColumn' in value;
}

/** The computed fields of one read, each as its SQL for the caller who reads: the adapter selects them by name. */
export interface ComputedSelect {
  readonly name: string;
  /** How the adapter reads the value back (a 0/1 as a boolean, a counted text as a number, a date as a `Date`). */
  readonly kind: 'boolean' | 'integer' | 'number' | 'string' | 'datetime';
  readonly sql: SqlFragment;
}
