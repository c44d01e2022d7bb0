/** Structural entity config (`EntityConfig`): resolved once at bootstrap, entity scope only, never merged. */
import type { ComputedConfig } from './computed-fields';
import type { OperationSettingsById, PaginationSettings, StandardOperationId, SvcSettings } from './svc-settings';
import type { SvcContext } from './svc-context';
import type { ScopedRepository } from '../persistence/scoped-repository';
import type { StandardSchemaV1 } from './standard-schema';
import type { FieldOf, PathOf, RowInput, RowOf, SortKeyOf } from './entity-fields';
import type { EnvelopeConfig } from './envelope-config';

/**
 * A decorator of the generated route method (a Nest `UseGuards(...)`, `UseInterceptors(...)`, `UsePipes(...)`,
 * `SetMetadata(...)`, `ApiTags(...)`, ...): the HTTP binding applies it to that route only.
 */
export type RouteDecorator = (target: object, propertyKey: string | symbol, descriptor: PropertyDescriptor) => unknown;

/** `operations.<id>.meta`: what the framework binding reads. */
export interface OperationMeta {
  readonly routes?: RouteOptions;
  /** Applied to this operation's route only, after the controller's own decorators. */
  readonly decorators?: readonly RouteDecorator[];
  /** OpenAPI: the operation's one-line summary. @default a sentence Svc writes from the operation */
  readonly summary?: string;
  /** OpenAPI: the operation's longer description (Markdown). */
  readonly description?: string;
  /** OpenAPI: marks the operation deprecated. @default false */
  readonly deprecated?: boolean;
  /** OpenAPI: tags of the operation, besides the controller's. */
  readonly tags?: readonly string[];
}

/** A field list that allows everything but some names. */
export interface ExcludeList<F extends string = string> {
  readonly exclude: readonly F[];
}

/** Names, or every name but some (`{ exclude }`); typed by the entity where `@Svc` or `createCrud` reads it. */
export type FieldList<F extends string = string> = readonly F[] | ExcludeList<F>;

/** A filter expression in object form: `{ pages: { gte: 100 }, or: [...], not: {...} }`. */
export type FilterExpression = Readonly<Record<string, unknown>>;

export interface ApplyArgs {
  readonly operation: string;
  readonly context: SvcContext;
}

export interface FilterConfig<T = unknown> {
  /**
   * The filterable fields, an allowlist in every form: an array (each field with every operator of its kind), a map
   * (each field with the listed operators; an own column it does not name is not filterable), or `{ exclude }`.
   * @default every own column
   */
  readonly fields?: FieldList<PathOf<T>> | { readonly [Field in PathOf<T>]?: readonly string[] };
  /** Applies when the request sends no `filter`; a client filter wins outright. */
  readonly default?: FilterExpression;
  /** ANDed into every read and into the id lookup of every single-row write. */
  readonly apply?: (args: ApplyArgs) => FilterExpression | undefined | Promise<FilterExpression | undefined>;
  readonly limits?: {
    /** @default 3 */
    readonly maxDepth?: number;
    /** @default 100 */
    readonly maxInValues?: number;
    /** @default 200 */
    readonly maxLikePatternLength?: number;
    /** Conditions one filter may hold across its groups (at most 500). @default 100 */
    readonly maxTerms?: number;
  };
  /**
   * Plain query parameters that filter a REST list (and count) by equality: `{ author: 'author.username' }` makes
   * `?author=jake` mean `filter[author.username][eq]=jake`. Each path must be on `filter.fields` with `eq`.
   */
  readonly params?: { readonly [param: string]: PathOf<T> };
}

export interface SortConfig<T = unknown> {
  /** Sortable fields. @default every own column */
  readonly fields?: FieldList<PathOf<T>>;
  /** Sort when the request sends no `sort`, in `sort=` shorthand (`-pages`). */
  readonly default?: readonly SortKeyOf<T>[];
  /** Keys forced ahead of the client's, deduplicating a client key for the same field. */
  readonly apply?: (args: ApplyArgs) => readonly string[] | undefined;
}

export interface PolicyArgs {
  readonly operation: string;
  readonly entity?: Readonly<Record<string, unknown>>;
  readonly params: Readonly<Record<string, unknown>>;
  readonly body?: unknown;
  readonly context: SvcContext;
}

/** One authorization function; false answers 403 SVC_FORBIDDEN. */
export type PolicyFunction = (args: PolicyArgs) => boolean | Promise<boolean>;

/**
 * What a handler receives. `Body` is what `input.body` holds: a standard write's handler gets the entity's write body
 * (`RowInput<Book>`); a custom operation's handler may name the type its input schema validates.
 */
export interface SvcOperationInput<Body = unknown> {
  /**
   * The route id, coerced to the key's kind: a number for an integer key, a string for a uuid or text key; an object
   * of the key's fields only for a composite key. Unset when the operation addresses no row.
   */
  readonly id?: unknown;
  /** The lookup key as an object (`{ id: 7 }`, or `{ <identifier.field>: value }`), whatever the key's shape. */
  readonly key?: Readonly<Record<string, unknown>>;
  readonly body?: Body;
  readonly query?: unknown;
}

/**
 * A handler's context: the caller's, with the entity's repository scoped to the request (never absent here).
 * `HandlerContext<Book>` types what the repository answers (`Book` rows) and takes (`RowInput<Book>` bodies).
 */
export type HandlerContext<T = unknown> = SvcContext<ScopedRepository<RowOf<T>, RowInput<T>>> & {
  readonly repository: ScopedRepository<RowOf<T>, RowInput<T>>;
};

/**
 * A handler in config, as a method so that it may name a narrower body than the operation declares (the body a custom
 * operation's input schema validates): `handler(input: SvcOperationInput<Review>, context) { ... }`.
 */
export interface HandlerSlot<T = unknown, Body = unknown> {
  handler?(input: SvcOperationInput<Body>, context: HandlerContext<T>): unknown;
}

export type OperationHandler<T = unknown, Body = unknown> = (
  input: SvcOperationInput<Body>,
  context: HandlerContext<T>,
) => unknown;

export interface RouteOptions {
  readonly method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path?: string;
  readonly enabled?: boolean;
  readonly successStatus?: number;
}

/** A field list slot: bare array or `{ fields }`; an empty list closes the slot. */
export type FieldListSlot<F extends string = string> = readonly F[] | { readonly fields: readonly F[] };

/** A write slot: a field list (the writable-field allowlist), a schema class, or a Standard Schema validator. */
export type InputSlot<T = unknown> = FieldListSlot<PathOf<T>> | (new () => object) | StandardSchemaV1;

export interface SchemaConfig<T = unknown> {
  readonly input?: {
    readonly create?: InputSlot<T>;
    readonly update?: InputSlot<T>;
    readonly patch?: InputSlot<T>;
    /** Gates the query parameters of reads: a schema class or a Standard Schema validator. */
    readonly query?: (new () => object) | StandardSchemaV1;
  };
  /** What item and list responses serve: a field list or a class with runtime fields; replaces the select projection. */
  readonly output?: {
    readonly item?: OutputSlot<T>;
    readonly list?: OutputSlot<T>;
  };
}

/** The standard writes whose `input.body` is the entity's write body. */
type BodyOf<T, Id extends StandardOperationId> = Id extends 'createOne' | 'updateOne' | 'patchOne'
  ? RowInput<T>
  : unknown;

type OperationExtras<T, Id extends StandardOperationId> = HandlerSlot<T, BodyOf<T, Id>> & {
  readonly meta?: OperationMeta;
  readonly policy?: PolicyFunction | false;
  /** Overrides the entity's root slots for this operation: a schema class or a Standard Schema validator only. */
  readonly schema?: {
    readonly input?: Function | StandardSchemaV1;
    readonly output?: Function;
    readonly query?: Function | StandardSchemaV1;
  };
};

/** Config of one standard operation: its own settings keys only (others are a compile error), plus extras. */
export type StandardOperationConfig<Id extends StandardOperationId, T = unknown> = OperationSettingsById[Id] &
  OperationExtras<T, Id>;

/**
 * A custom operation: any `operations` key that is not a standard id (camelCase; one differing from a standard id only
 * by case is refused). It needs a `handler` here or an `@Override('<id>')` method on the controller.
 */
export interface CustomOperationConfig<T = unknown> extends SvcSettings, HandlerSlot<T> {
  /** `read` resolves the list query and takes no body; `write` (the default) takes a body and runs in a transaction. */
  readonly kind?: 'read' | 'write';
  /** `many` answers the list envelope; its handler returns `{ entities, total, meta? }`. @default 'one' */
  readonly cardinality?: 'one' | 'many';
  /** false: no route, and calling it answers 405 SVC_OPERATION_DISABLED. @default true */
  readonly enabled?: boolean;
  readonly policy?: PolicyFunction | false;
  /** `input` and `output` on a write, `output` and `query` on a read. */
  readonly schema?: {
    readonly input?: Function | StandardSchemaV1;
    readonly output?: Function | StandardSchemaV1 | readonly string[];
    readonly query?: Function | StandardSchemaV1;
  };
  /** Route options; without them the operation is routed `POST /<operation id>` and answers 201. */
  readonly meta?: OperationMeta;
  /** The realtime event a `write`/`one` operation publishes (valid only there). */
  readonly realtimeEvent?: string;
}

export type EntityOperationsMap<T = unknown> = {
  readonly [Id in StandardOperationId]?: boolean | StandardOperationConfig<Id, T>;
} & {
  readonly [custom: string]: boolean | CustomOperationConfig<T> | undefined;
};

/**
 * The structural keys of an entity config. `T` is the entity (`@Svc(Book, ...)` and `createCrud(Book, ...)` read it
 * from the class): each field list then takes only Book's fields and one-hop paths, so a misspelt name fails to
 * compile. Left `unknown`, any name compiles and the boot checks alone refuse it.
 */
export interface EntityStructure<T = unknown> {
  readonly schema?: SchemaConfig<T>;
  readonly policy?: PolicyFunction;
  readonly filter?: FilterConfig<T>;
  readonly sort?: SortConfig<T>;
  /** Readable fields: they close every response body; `select=` narrows within them. */
  readonly select?: SelectConfigInput<T>;
  /** `search[query]`; false (the default) refuses the parameter. */
  readonly search?: SearchConfigInput<T> | false;
  /** Relations a read may embed (opt-in). */
  readonly include?: IncludeConfigInput<T>;
  /** Per-relation tuning, keyed by the entity's own relation names. */
  readonly relations?: { readonly [Relation in FieldOf<T>]?: RelationConfigInput };
  /** Server-forced write values, overwriting the client's on createOne and updateOne (never patchOne). */
  readonly set?: SetConfig<T>;
  /** Whitelist of operations: absent means defaults; present means only those named. */
  readonly operations?: EntityOperationsMap<T>;
  /**
   * Batch writes, off unless named here (the `operations` whitelist neither turns them on nor is needed):
   * `createMany` (`POST /batch`), `updateMany` (`PATCH /` by filter) and `deleteMany` (`DELETE /` by filter).
   */
  readonly batch?: BatchConfig<T>;
  /**
   * Aggregates, off unless named here: `aggregate` (`GET /aggregate`), counts, sums, averages, minimums and maximums
   * computed by the database over the rows a filter matches, grouped by the fields `groupBy` lists.
   */
  readonly aggregate?: AggregateConfig<T>;
  /**
   * `count`, off unless `true`: `GET /count` answers `{ total }`, how many rows the list's filter and search match,
   * counted by the database under the list's allowlists, limits, scope and row view.
   */
  readonly count?: boolean;
  /**
   * Access per caller: `role(context)` names the caller's role, and the rule under that name narrows, for that caller,
   * what the rest of the config gives everyone: the fields it reads, the fields it writes, and which writes it may
   * make. A caller whose role names no rule (or who has none) gets what everyone gets.
   */
  readonly access?: AccessConfig<T>;
  /**
   * REST only: the keys single-row answers and write bodies are wrapped in (`item`), and the names a list answer's
   * `items` and `total` take (`list`). GraphQL and MCP keep their own shapes.
   */
  readonly envelope?: EnvelopeConfig;
  /**
   * Read-only fields the database computes in the same statement as each row, from SQL that may depend on the caller:
   * `favorited: { kind: 'boolean', select: (column, context) => sql\`EXISTS (...)\` }`. Served on every read
   * surface; never written, filtered, sorted, searched or aggregated.
   */
  readonly computed?: ComputedConfig<T>;
  /**
   * A child collection under a row of another entity (`@Controller('articles/:slug/comments')`): `relation` is the
   * owning to-one link to the parent, `param` the route parameter naming it, `field` the parent's column it holds
   * (default: its primary key). Each operation reaches only that parent's rows, a create links to it, and a parent
   * the caller cannot see answers 404 naming the parent.
   */
  readonly parent?: { readonly relation: FieldOf<T>; readonly param: string; readonly field?: string };
}

/** `access`: a role per caller, and a rule per role. */
export interface AccessConfig<T = unknown> {
  readonly role: (context: SvcContext) => string | undefined;
  readonly roles: { readonly [role: string]: AccessRule<T> };
}

/**
 * What one role may do, each part narrowing (never widening) what `select.fields`, the write slots and the served
 * operations give: `read` the fields (and relations) it sees, `create` and `update` the fields it may send (false: it
 * may not create, or update), `delete` whether it may delete, restore or purge. An unset part narrows nothing.
 */
export interface AccessRule<T = unknown> {
  readonly read?: FieldList<PathOf<T>> | 'all';
  readonly create?: FieldList<PathOf<T>> | 'all' | false;
  readonly update?: FieldList<PathOf<T>> | 'all' | false;
  readonly delete?: boolean;
}

/** `service.count(query)`: what `GET /count` takes, as values. */
export interface CountQuery {
  readonly filter?: FilterExpression;
  readonly search?: string;
  readonly withDeleted?: boolean;
  readonly onlyDeleted?: boolean;
}

/** A function `GET /aggregate` computes: `count` counts rows; the others read one column. */
export type AggregateFunctionName = 'count' | 'countDistinct' | 'sum' | 'avg' | 'min' | 'max';

/** `aggregate`: which fields take which functions, which fields group, and how many groups one call may answer. */
export interface AggregateConfig<T = unknown> {
  /**
   * The functions each field takes. Listing a field makes it aggregatable even where `select.fields` hides it.
   * @default sum, avg, min and max on every served numeric column; min and max on every served date column (keys,
   *   primary or foreign, only where listed)
   */
  readonly fields?: { readonly [Field in PathOf<T>]?: readonly Exclude<AggregateFunctionName, 'count'>[] };
  /** Fields a call may group by: own columns and owning to-one paths (`author.country`). @default none */
  readonly groupBy?: readonly PathOf<T>[];
  readonly limits?: {
    /** Groups one call may answer (its `limit`'s ceiling and default, at most 10,000). @default 1000 */
    readonly maxGroups?: number;
  };
}

/** `service.aggregate(query)`: what `GET /aggregate` takes, as values. */
export interface AggregateQuery {
  readonly groupBy?: readonly string[] | string;
  /** Count the rows of each group (always answered; accepted for symmetry with the wire). */
  readonly count?: boolean;
  readonly countDistinct?: readonly string[] | string;
  readonly sum?: readonly string[] | string;
  readonly avg?: readonly string[] | string;
  readonly min?: readonly string[] | string;
  readonly max?: readonly string[] | string;
  readonly filter?: FilterExpression;
  readonly search?: string;
  /** Over group keys and aggregates: `-count`, `sum.pages`, `author.country`. */
  readonly sort?: readonly string[] | string;
  readonly limit?: number;
  readonly offset?: number;
  readonly withDeleted?: boolean;
  readonly onlyDeleted?: boolean;
}

/** `batch`: which batch writes are on, and how large one may be. */
export interface BatchConfig<T = unknown> {
  /** `createMany`: `POST /batch` with a JSON array of create bodies; `{ onConflict }` makes it an upsert. */
  readonly create?: true | { readonly onConflict?: UpsertConfig<T> };
  /** `updateMany`: `PATCH /?filter=...` with one patch body for every matching row. */
  readonly update?: true;
  /** `deleteMany`: `DELETE /?filter=...`, soft or hard as `deleteOne`. */
  readonly delete?: true;
  /** Items one `createMany` may carry (at most 10,000). @default 100 */
  readonly maxItems?: number;
  /** Rows one `updateMany` or `deleteMany` may change (at most 10,000). @default 100 */
  readonly maxAffected?: number;
}

/**
 * An upsert's conflict rule, chosen in config, never by the client: an item whose `target` columns match an existing
 * row updates that row's `update` fields (`'all'`: every field the item sends but the target; `'none'`: keeps it).
 */
export interface UpsertConfig<T = unknown> {
  /** Columns that together are unique (a unique column, a unique index, or the primary key). */
  readonly target: readonly PathOf<T>[];
  readonly update: readonly PathOf<T>[] | 'all' | 'none';
}

/** What `@Svc(Entity, config)`, `createCrud(Entity, config)` and `instance.createCrud` take. */
/** An entity's config: its settings and its structural keys, typed by the entity `T` where one is known. */
// The default is `any`, not `unknown`: a config typed by an entity (`EntityConfig<Book>`) must still be assignable where
// any config is taken, and the field types' `unknown extends T` test reads `any` as "no entity known" all the same.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type EntityConfig<T = any> = Omit<SvcSettings, 'identifier' | 'pagination'> &
  EntityStructure<T> & {
    /** A scalar column the single-row routes look rows up by, instead of the primary key. */
    readonly identifier?: { readonly field: FieldOf<T> };
    readonly pagination?: Omit<PaginationSettings, 'since'> & { readonly since?: { readonly field?: FieldOf<T> } };
  };

/** The parsed query a programmatic `findMany` takes. */
export interface FindManyQuery {
  readonly filter?: FilterExpression;
  readonly sort?: readonly string[] | string;
  readonly limit?: number;
  readonly offset?: number;
  /** Under the `page` strategy. */
  readonly page?: { readonly number?: number; readonly size?: number };
  /** Under the `cursor` strategy: `meta.nextCursor` of the previous page. */
  readonly cursor?: string;
  /** Under the `since` strategy: `meta.nextSince` of the previous poll, or `<value>|<id>` of a known row. */
  readonly since?: string;
  readonly withDeleted?: boolean;
  readonly onlyDeleted?: boolean;
  readonly select?: readonly string[] | string;
  readonly search?: string;
  readonly include?: readonly string[] | string;
}

/** `select`: the readable fields, the default projection and `apply`. */
export interface SelectConfigInput<T = unknown> {
  /** Depth-1 own columns. @default every own column */
  readonly fields?: FieldList<PathOf<T>>;
  /** The projection when a request sends no `select`. @default every selectable field */
  readonly default?: readonly PathOf<T>[];
  /** Fields added to every projection (never a mask). */
  readonly apply?: (args: ApplyArgs) => readonly string[] | undefined | Promise<readonly string[] | undefined>;
}

/** `search`. */
export interface SearchConfigInput<T = unknown> {
  /** @default every own string column */
  readonly fields?: FieldList<PathOf<T>>;
  /** The term used when a request sends no `search[query]`. */
  readonly default?: string;
  /** `substring`: the whole term; `words`: every word must match some field. @default 'substring' */
  readonly mode?: 'substring' | 'words';
  /** @default 'orm' */
  readonly driver?: 'orm';
}

/** `set`: server-forced write values that overwrite the client's, per request (createOne, createMany's items, updateOne). */
export interface SetArgs {
  readonly operation: 'createOne' | 'updateOne' | 'createMany';
  readonly body: unknown;
  readonly context: SvcContext;
}

/** Values `set` forces, by field (or embedded path). */
export type SetValues<T = unknown> = { readonly [Field in PathOf<T>]?: unknown };

export type SetFunction<T = unknown> = (args: SetArgs) => SetValues<T> | undefined | Promise<SetValues<T> | undefined>;

/** A bare function forces the same values on createOne and updateOne; the object form lets them differ. */
export type SetConfig<T = unknown> =
  SetFunction<T> | { readonly create?: SetFunction<T>; readonly update?: SetFunction<T> };

/** A field list (bare or `{ fields }`), or a class. */
export type OutputSlot<T = unknown> =
  readonly PathOf<T>[] | { readonly fields: readonly PathOf<T>[] } | (new () => object) | StandardSchemaV1;

/** `include` and `relations.<name>`. */
export type RelationReadStrategy = 'auto' | 'join' | 'batch' | 'key';

export interface IncludeConfigInput<T = unknown> {
  /** Includable relations (depth 1). @default none: include is opt-in; `{ exclude: [] }` allows every relation. */
  readonly fields?: FieldList<FieldOf<T>>;
  /** Relations included even when `include=` does not name them. */
  readonly default?: readonly string[];
  /** Paths force-included on every request (still subject to fields and limits). */
  readonly apply?: (args: ApplyArgs) => readonly string[] | undefined | Promise<readonly string[] | undefined>;
  readonly limits?: {
    /** @default 2 */
    readonly maxDepth?: number;
    /** @default 10 */
    readonly maxNodes?: number;
  };
}

export interface RelationConfigInput {
  /**
   * A to-many relation served over REST as the list of one field of its rows (`tagList: ['dragons', 'magic']`), and
   * written as such where `write.nested.connectOrCreate` is that one field: a list replaces the members, each value
   * connected to the row that holds it or created. GraphQL and MCP keep the related rows and the nested forms.
   */
  readonly values?: string;
  readonly read?: { readonly maxDepth?: number; readonly strategy?: RelationReadStrategy };
  /**
   * How clients write the relation: to-many array writes through `PUT /:id/<relation>`, sub-resource routes or JSON
   * Patch (`strategy`), and nested writes in the parent's own create and update bodies (`nested`), on to-one and
   * to-many relations.
   */
  readonly write?: {
    /** To-many relations only. */
    readonly strategy?: 'replace' | 'resource' | 'jsonPatch';
    /** Member ids (or nested members) one request may name; more is a 400. @default 1000 (at most 10000) */
    readonly maxMembers?: number;
    /** Applied to each of this relation's routes (`replace` and `resource`), as `operations.<id>.meta.decorators`. */
    readonly decorators?: readonly RouteDecorator[];
    /** The nested forms a create or update body may write under the relation's name; off unless named. */
    readonly nested?: NestedWriteConfig;
    /** How deep nested writes may go through this relation (a nested row's own nested writes count one more). @default 2 */
    readonly maxDepth?: number;
  };
}

/**
 * `relations.<name>.write.nested`: `create` a related row, `connect` an existing one by its key, `connectOrCreate` by
 * a unique set of its fields (connect the row holding those values, else create it), `update` an existing one and
 * connect it. Each row goes through its own entity's create or patch rules, in the parent's transaction.
 */
export interface NestedWriteConfig {
  readonly create?: true;
  readonly connect?: true;
  readonly connectOrCreate?: readonly string[];
  readonly update?: true;
}
