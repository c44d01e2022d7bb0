/**
 * The names an entity config may use, read off the entity's class so that a misspelt field fails to compile, naming
 * it: `FieldOf<Book>` is Book's own data properties (`'id' | 'title' | ...`, never a method), `PathOf<Book>` adds the
 * one-hop paths through a relation or an embedded class (`'author.country'`, `'price.amount'`). With no class to read
 * (`unknown`, a record type, a config built at run time), any string is taken; the boot checks hold either way.
 */

type DataKeys<T> = { [K in keyof T]-?: T[K] extends Function ? never : K }[keyof T];

/** The entity's own data properties. */
export type FieldOf<T> = unknown extends T ? string : Extract<DataKeys<T>, string>;

/** A to-many relation's member, or the value itself. */
type Member<V> = V extends readonly (infer E)[] ? E : V;

/** `<key>.<field>` for each field of the related or embedded class under `K`; nothing under a scalar or a date. */
type PathsUnder<K extends string, V> =
  Member<NonNullable<V>> extends infer R
    ? R extends Date | string | number | boolean | bigint
      ? never
      : R extends object
        ? `${K}.${FieldOf<R>}`
        : never
    : never;

/** The entity's own data properties and the one-hop paths through its relations and embedded classes. */
export type PathOf<T> = unknown extends T
  ? string
  : FieldOf<T> | { [K in FieldOf<T>]: K extends keyof T ? PathsUnder<K, T[K]> : never }[FieldOf<T>];

/** A sort key: a path, or a path with a leading `-` (descending). */
export type SortKeyOf<T> = PathOf<T> | `-${PathOf<T>}`;

/** What `@Svc` and `createCrud` read the entity's fields from: its class (or any function, then untyped). */
export type EntityTarget<T> = (abstract new (...args: never[]) => T) | Function;

/** The rows a service of `T` answers: `T`'s own, or plain records where no class was read. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a class-typed row must be assignable to the untyped one
export type RowOf<T> = unknown extends T ? Record<string, any> : T;

/** A value a write may send for a property of type `V`: a date also as its ISO string, a relation as a key object. */
type InputValue<V> = V extends Date
  ? V | string
  : V extends readonly (infer E)[]
    ? readonly InputValue<E>[]
    : V extends string | number | boolean | bigint | null | undefined
      ? V
      : V extends object
        ? { readonly [K in keyof V]?: unknown }
        : V;

/**
 * A write body of `T` (what `context.repository.create` and `update` take, and a standard write's `input.body`): any
 * of `T`'s own data properties, a relation as a key object (`{ author: { id: 7 } }`), a date as a `Date` or its ISO
 * string. A name `T` does not have fails to compile. With no class to read, any record.
 */
export type RowInput<T> = unknown extends T
  ? Record<string, unknown>
  : { readonly [K in FieldOf<T>]?: K extends keyof T ? InputValue<T[K]> | null : never };
