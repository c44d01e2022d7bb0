/**
 * The description API's types: one plain, frozen account of what an entity serves (`describeEntity` builds it once
 * from the resolved config). Every surface beyond REST (OpenAPI, the agent tools, GraphQL) reads it instead of core's
 * internals, so they agree.
 */
import type { ColumnKind, ColumnList, RelationKind } from '../persistence/entity-metadata';
import type { FilterOperator, SortKey } from '../persistence/query-ast';
import type { OperandShape } from '../query/operand-shapes';
import type { HttpMethod, OperationFacts } from '../config/operation-facts';
import type { MeasureFunction } from '../config/aggregate-config';

/** A JSON Schema object (draft 2020-12). */
type JsonSchema = Readonly<Record<string, unknown>>;

export interface FieldDescription {
  readonly name: string;
  readonly kind: ColumnKind;
  readonly nullable: boolean;
  readonly primary: boolean;
  /**
   * Written by the database or the ORM, never by a client (auto-increment, generated uuid, create/update date,
   * version, the discriminator of single-table inheritance).
   */
  readonly generated: boolean;
  /** The database or the ORM supplies a value when none is written. */
  readonly hasDefault: boolean;
  readonly enumValues?: readonly (string | number)[];
  readonly length?: number;
  /** On `select.fields`: served in responses. */
  readonly readable: boolean;
  /** The soft-delete marker. */
  readonly deleteMarker: boolean;
  /** The to-one relation this column is the foreign key of. */
  readonly foreignKeyOf?: string;
  /** A list column's items (its kind is `json`): an array of `of` values. */
  readonly list?: ColumnList;
}

export interface WriteFieldDescription {
  readonly name: string;
  /** A column, or a to-one relation written by reference (`{ "<targetKey>": id }`). */
  readonly kind: ColumnKind | 'reference';
  readonly nullable: boolean;
  readonly enumValues?: readonly (string | number)[];
  /** Columns: the most characters a string takes. */
  readonly length?: number;
  /** Columns: a list column's items (its kind is `json`). */
  readonly list?: ColumnList;
  /** References: the target entity and the kind of its key. */
  readonly target?: { readonly entity: string; readonly key: string; readonly keyKind: ColumnKind };
}

export interface WriteSlotDescription {
  readonly fields: readonly WriteFieldDescription[];
  /** Fields a body must hold (create; and the replace of update). */
  readonly required: readonly string[];
  /**
   * Pairs of a reference that may not be null and its foreign-key column, both writable: a body must hold one of the
   * two (create; and the replace of update). A body never holds both of a reference and its column, on any slot.
   */
  readonly requiredOneOf: readonly (readonly [reference: string, column: string])[];
  /** A schema class or Standard Schema validator checks the body before the field rules. */
  readonly validated: boolean;
  /** The body's JSON Schema (draft 2020-12), when the slot's Standard Schema validator exposes one. */
  readonly jsonSchema?: Readonly<Record<string, unknown>>;
  /** Relations the body may write nested rows through (`relations.<name>.write.nested`). */
  readonly nested?: readonly NestedWriteDescription[];
}

/** A relation a body writes nested rows through: its forms, and the JSON Schema of what it takes there. */
export interface NestedWriteDescription {
  readonly relation: string;
  /** The related entity's name. */
  readonly target: string;
  /** An array of forms (to-many), or one (to-one, which also takes a plain reference). */
  readonly many: boolean;
  readonly forms: readonly ('create' | 'connect' | 'connectOrCreate' | 'update')[];
  /** The target's key, which `connect` and `update.where` name a row by. */
  readonly key: string;
  /** `connectOrCreate.where`: the unique fields it matches by. */
  readonly matchBy?: readonly string[];
  readonly maxMembers: number;
  readonly maxDepth: number;
  /** What the body takes under the relation's name, nested forms of the target's own relations included. */
  readonly schema: Readonly<Record<string, unknown>>;
}

export interface RelationDescription {
  readonly name: string;
  readonly kind: RelationKind;
  /** The target entity's name. */
  readonly target: string;
  readonly includable: boolean;
  /** Array writes of a to-many relation (`relations.<name>.write`). */
  readonly write?: { readonly strategy: 'replace' | 'resource' | 'jsonPatch'; readonly maxMembers: number };
}

/** An operator's operand: one of five shapes, bounded by the entity's filter limits. */
export interface OperandDescription {
  readonly shape: OperandShape;
  readonly help: string;
  /** `list` and `pair`: how many values it takes. */
  readonly minItems?: number;
  readonly maxItems?: number;
  /** `pattern`: the most characters it takes. */
  readonly maxLength?: number;
}

/**
 * The query parameters an operation takes: `list` (filter, sort, select, include, search and the strategy's paging),
 * `item` (select and include), `filter` (the list grammar's filter alone, required: the rows a batch changes),
 * `aggregate` (groupBy, the functions, sort, limit and offset over groups, with filter and search), `members` (the
 * ids a relation removal takes), or `none`.
 */
export type QueryShape = OperationFacts['takes']['query'] | 'members';
/** What the body is: a write slot, the custom operation's own shape, member ids, or none. */
export type BodyShape = OperationFacts['takes']['body'] | 'custom' | 'members';
/** What a success serves: a standard operation's answer, or the rows of a relation's members (`members`). */
export type AnswerShape = OperationFacts['answers'] | 'members';

/** One response of an operation: what it says, its body's schema and headers; `problem` for an error's. */
export interface ResponseDescription {
  readonly description: string;
  readonly schema?: JsonSchema;
  readonly headers?: Readonly<Record<string, { readonly description: string; readonly schema: JsonSchema }>>;
  /** A problem details body (`application/problem+json`). */
  readonly problem?: boolean;
}

export interface OperationDescription {
  readonly id: string;
  readonly standard: boolean;
  readonly kind: 'read' | 'write';
  readonly cardinality: 'one' | 'many';
  /** 'on', or 'disabled' by the global operations map (405). */
  readonly state: 'on' | 'disabled';
  /** Its HTTP route, unless it is served only through the engine. */
  readonly route?: { readonly method: HttpMethod; readonly path: string };
  readonly successStatus: number;
  /** It addresses one row by the entity's lookup fields (the route's `:id`). */
  readonly takesId: boolean;
  /** What the body is: a write slot, the custom operation's own shape, member ids, or none. */
  readonly body: BodyShape;
  /** Its body takes the nested forms of the slot's nested relations (`write.<slot>.nested`). */
  readonly nested?: boolean;
  /** The body is a JSON array of 1 to `batch.maxItems` bodies of that slot (a batch create). */
  readonly items?: { readonly maxItems: number };
  /** The query parameters it takes (see `QueryShape`). */
  readonly query: QueryShape;
  /** The body may also be an RFC 6902 JSON Patch document (a patch where a relation takes `jsonPatch` writes). */
  readonly jsonPatch?: boolean;
  /** An aggregate: the functions each field takes, the fields it groups by, and the most groups a call answers. */
  readonly aggregate?: AggregateDescription;
  /** A batch write by filter: the most rows one call may change (`batch.maxAffected`). */
  readonly maxAffected?: number;
  /** A custom write's body, as the JSON Schema (draft 2020-12) of its `schema.input`, when its validator can say. */
  readonly inputSchema?: Readonly<Record<string, unknown>>;
  /** Relation array writes: the relation and the action. */
  readonly relation?: { readonly name: string; readonly action: string };
  /** A custom write's event. */
  readonly realtimeEvent?: string;
  /** The event a committed call publishes (a standard write's, a custom write's `realtimeEvent`). */
  readonly event?: string;
  /** What a success serves: the row, a page of rows, nothing, a batch's rows, groups, or a relation's members. */
  readonly answers: AnswerShape;
  /** Standard operations: whether If-None-Match answers 304, and whether If-Match is checked or refused. */
  readonly conditional?: OperationFacts['conditional'];
  /** A one-line summary (`operations.<id>.meta.summary` wins): `Create a Book`, `Publish one Book`. */
  readonly summary: string;
  /** Standard operations: a title (`Create Book`), a sentence for an agent, and what a bodiless success did. */
  readonly wording?: { readonly title: string; readonly sentence: string; readonly done?: string };
  /** Standard operations: hints for a tool host (never a security boundary). */
  readonly hints?: OperationFacts['hints'];
  /** What `operations.<id>.meta` says of it for documentation (OpenAPI), when it says anything. */
  readonly docs?: {
    readonly summary?: string;
    readonly description?: string;
    readonly deprecated?: boolean;
    readonly tags?: readonly string[];
  };
  /** What it takes and answers, as JSON Schema; shared shapes are `$ref`s to the entity's `schemas`. */
  readonly schemas: OperationSchemas;
}

export interface EntityDescription {
  readonly name: string;
  /** The route parameter and the fields a single row is looked up by. */
  readonly lookup: { readonly param: string; readonly fields: readonly string[] };
  readonly primaryKeys: readonly string[];
  readonly fields: readonly FieldDescription[];
  readonly relations: readonly RelationDescription[];
  readonly write: {
    readonly create: WriteSlotDescription;
    readonly update: WriteSlotDescription;
    readonly patch: WriteSlotDescription;
  };
  /** What each read serves: `findOne` and write responses (`item`), each `findMany` item (`list`). */
  readonly output: { readonly item: readonly string[]; readonly list: readonly string[] };
  readonly filter: {
    readonly fields: readonly {
      readonly name: string;
      readonly kind: ColumnKind;
      readonly operators: readonly FilterOperator[];
    }[];
    readonly limits: {
      readonly maxDepth: number;
      readonly maxInValues: number;
      readonly maxLikePatternLength: number;
      readonly maxTerms: number;
    };
    /** What each operator the fields allow takes: its operand shape, the shape's bound and a line of help. */
    readonly operands: Readonly<Partial<Record<FilterOperator, OperandDescription>>>;
  };
  readonly sort: { readonly fields: readonly string[]; readonly default: readonly SortKey[] };
  readonly select: { readonly fields: readonly string[]; readonly default?: readonly string[] };
  readonly search?: { readonly fields: readonly string[]; readonly mode: 'substring' | 'words' };
  readonly include: {
    readonly relations: readonly {
      readonly name: string;
      readonly target: string;
      readonly maxDepth: number;
      /** `relations.<name>.read.strategy: key`: an included row holds only the target's key. */
      readonly keysOnly?: boolean;
    }[];
    readonly default: readonly string[];
    readonly maxDepth: number;
    readonly maxNodes: number;
  };
  /** `findMany`'s strategy and the query parameters it takes. */
  readonly pagination: {
    readonly strategy: string;
    readonly params: readonly string[];
    readonly defaultLimit: number;
    readonly maxLimit: number;
    readonly count: boolean;
    readonly sinceField?: string;
    /** The strategy sets the order itself, so `sort` is not taken. */
    readonly ownsSort: boolean;
  };
  readonly softDelete: boolean;
  /**
   * Realtime, when the entity publishes events: their ids, the fields an event's `item` may carry (after
   * `select.fields` and `realtime.subscribableFields`), and the subscription route (`GET <path>`, taking `filter` and
   * `id`), answered as Server-Sent Events when a transport serves them.
   */
  readonly realtime?: {
    readonly events: readonly string[];
    readonly path: string;
  };
  /** Served operations (standard, custom and relation operations), enabled or disabled by the global map. */
  readonly operations: readonly OperationDescription[];
  /**
   * The named schemas the operations refer to as `#/$defs/<name>`: `Book`, `BookList`, `BookCreate`, `BookFilter`,
   * `Problem`, ...
   */
  readonly schemas: Readonly<Record<string, JsonSchema>>;
  /**
   * `access`: the roles with a rule, and per field the roles that may read it and those that may write it (create
   * or update). A caller whose role has no rule reads and writes what this description serves.
   */
  readonly roles?: RolesDescription;
}

/** Who may read and write each field, by role (`access`). */
export interface RolesDescription {
  readonly names: readonly string[];
  /** Each served field: the roles that read it. */
  readonly read: Readonly<Record<string, readonly string[]>>;
  /** Each writable field: the roles that may send it in a create or an update. */
  readonly write: Readonly<Record<string, readonly string[]>>;
}

/** What an aggregate takes: `count` is always served; the other functions by field. */
export interface AggregateDescription {
  /** The functions each own column takes, with its kind (a sum of a decimal column is an exact decimal string). */
  readonly fields: readonly {
    readonly field: string;
    readonly kind: ColumnKind;
    readonly functions: readonly MeasureFunction[];
  }[];
  /** The groupable fields, own columns and to-one paths (`author.country`), with the kind of their values. */
  readonly groupBy: readonly { readonly field: string; readonly kind: ColumnKind }[];
  readonly maxGroups: number;
}

/** An operation as described, before its schemas are added. */
export type OperationShapes = Omit<OperationDescription, 'schemas'>;

/** What an operation takes and answers, as JSON Schema (built by `operation-schemas.ts`). */
export interface OperationSchemas {
  /**
   * The path parameters, by the names of the REST route (`:id`, or `identifier.field`'s name): the row's key, typed by
   * its column, or an object of its columns where the key is composite (REST joins them with commas, in order).
   */
  readonly params: JsonSchema;
  /** The query, as `service.findMany(query)` and the tools take it: filter as an object, lists as arrays. */
  readonly query: JsonSchema;
  /** How REST's query string spells a property, where its name differs (`search` is `search[query]`). */
  readonly queryNames: Readonly<Record<string, string>>;
  /** The conditional request headers it honours (`If-None-Match`, `If-Match`). */
  readonly headers: JsonSchema;
  /** The body: its JSON schema, and other media types it takes (an RFC 6902 JSON Patch). */
  readonly body?: BodySchema;
  /** Every response by status: the success (and its alternatives), 304 where a read is conditional, the problems. */
  readonly responses: Readonly<Record<string, ResponseDescription>>;
}

export interface BodySchema {
  readonly required: boolean;
  readonly description?: string;
  readonly schema: JsonSchema;
  /** Other media types the body may be, with their schemas (`application/json-patch+json`). */
  readonly alternatives?: Readonly<Record<string, JsonSchema>>;
}
