/**
 * SQL an app writes into Svc's own statements (`computed` fields): text with every value bound as a parameter, and
 * the row's own columns named by their properties, which the adapter writes as its dialect quotes them.
 */

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
  return Object.freeze({ svcTable: name });
}

export function isTableReference(value: unknown): value is TableReference {
  return typeof value === 'object' && value !== null && typeof (value as TableReference).svcTable === 'string';
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
  return Object.freeze({ svcSql: true as const, strings: Object.freeze(pieces), values: Object.freeze(bound) });
}

export function isSqlFragment(value: unknown): value is SqlFragment {
  return typeof value === 'object' && value !== null && (value as SqlFragment).svcSql === true;
}

export function isColumnReference(value: unknown): value is ColumnReference {
  return typeof value === 'object' && value !== null && typeof (value as ColumnReference).svcColumn === 'string';
}

/** The computed fields of one read, each as its SQL for the caller who reads: the adapter selects them by name. */
export interface ComputedSelect {
  readonly name: string;
  /** How the adapter reads the value back (a 0/1 as a boolean, a counted text as a number, a date as a `Date`). */
  readonly kind: 'boolean' | 'integer' | 'number' | 'string' | 'datetime';
  readonly sql: SqlFragment;
}
