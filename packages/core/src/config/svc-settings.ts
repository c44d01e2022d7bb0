/** The settings keys (`SvcSettings`) merged through the precedence chain: built-in → global → entity → operation → call. */
import type { ErrorFormat } from '../errors/error-format';

export type PaginationStrategyName = 'offset' | 'page' | 'cursor' | 'since' | 'none' | (string & {});

export interface PaginationSettings {
  /** Page size when the request sends no `limit`. @default 20 */
  readonly defaultLimit?: number;
  /** A larger `limit` is clamped to this. @default 100 */
  readonly maxLimit?: number;
  /** @default 'offset' */
  readonly strategy?: PaginationStrategyName;
  /** Count the whole match set; false makes `total` null. @default true */
  readonly count?: boolean;
  readonly since?: { readonly field?: string };
}

export interface CacheSettings {
  /** Result-cache lifetime in seconds; omitted means off; `false` turns an inherited ttl off. */
  readonly ttl?: number | false;
  /** ETag on single-item responses plus If-None-Match / If-Match handling. @default true */
  readonly etag?: boolean;
  /**
   * Entity scope only: the entities (their classes) whose writes must also drop this entity's cached reads, because
   * its rows hold values computed from theirs (a virtual column's query, a view's query). A view's own `dependsOn` is
   * taken as well. `[]` says its computed values read its own table only. An entity with computed values whose reads
   * are cached must say where they come from, here or in its view's `dependsOn`: otherwise it is refused at bootstrap.
   */
  readonly dependsOn?: readonly Function[];
}

export type DeleteStrategy = 'auto' | 'soft' | 'hard';

export interface DeleteSettings {
  /** Soft-delete marker property. @default 'deletedAt' */
  readonly field?: string;
  /** @default 'auto' (soft when the entity has the marker, hard otherwise) */
  readonly strategy?: DeleteStrategy;
}

export interface ErrorSettings {
  /** Serve driver-level detail in error responses. @default false */
  readonly exposeInternals?: boolean;
  /**
   * The app's error answer over REST: called with each error's problem object; what it returns is sent (its status,
   * its JSON body), `undefined` keeps the problem+json answer. GraphQL and MCP keep their own shapes.
   * @default problem+json for every error
   */
  readonly format?: ErrorFormat;
}

export type RealtimeEventId = 'created' | 'updated' | 'patched' | 'deleted' | 'restored';

export interface RealtimeSettings {
  readonly events?: Partial<Record<RealtimeEventId, boolean>>;
  readonly subscribableFields?: readonly string[] | { readonly exclude: readonly string[] };
  readonly onPublishError?: (error: unknown, transport: unknown, event: unknown) => void;
}

export interface IdentifierSettings {
  /** A scalar column the single-row routes look rows up by, instead of the primary key. */
  readonly field: string;
}

/** The standard operations (each defined once in `operations/definitions/`, listed by the operation registry). */
export type StandardOperationId =
  | 'createOne'
  | 'findOne'
  | 'findMany'
  | 'updateOne'
  | 'patchOne'
  | 'deleteOne'
  | 'restoreOne'
  | 'purgeOne'
  | 'createMany'
  | 'updateMany'
  | 'deleteMany'
  | 'aggregate'
  | 'count';

/** Every settings key, as the global and entity scopes take them. */
export interface SvcSettings {
  readonly pagination?: PaginationSettings;
  readonly errors?: ErrorSettings;
  readonly cache?: CacheSettings | false;
  readonly delete?: DeleteSettings | false;
  readonly realtime?: RealtimeSettings | false;
  /** Global and entity scope only. */
  readonly identifier?: IdentifierSettings;
}

/** Global scope adds the boolean operations map. */
export interface GlobalSettings extends SvcSettings {
  readonly operations?: Partial<Record<StandardOperationId, boolean>>;
}

/** The settings keys each operation's stages read, and so the only ones allowed at its scope. */
export interface OperationSettingsById {
  findMany: Pick<SvcSettings, 'pagination' | 'delete' | 'cache' | 'errors'>;
  findOne: Pick<SvcSettings, 'delete' | 'cache' | 'errors'>;
  createOne: Pick<SvcSettings, 'realtime' | 'cache' | 'errors'>;
  updateOne: Pick<SvcSettings, 'realtime' | 'cache' | 'errors'>;
  patchOne: Pick<SvcSettings, 'realtime' | 'cache' | 'errors'>;
  deleteOne: Pick<SvcSettings, 'realtime' | 'delete' | 'cache' | 'errors'>;
  restoreOne: Pick<SvcSettings, 'realtime' | 'delete' | 'cache' | 'errors'>;
  purgeOne: Pick<SvcSettings, 'realtime' | 'delete' | 'cache' | 'errors'>;
  createMany: Pick<SvcSettings, 'realtime' | 'cache' | 'errors'>;
  updateMany: Pick<SvcSettings, 'realtime' | 'delete' | 'cache' | 'errors'>;
  deleteMany: Pick<SvcSettings, 'realtime' | 'delete' | 'cache' | 'errors'>;
  aggregate: Pick<SvcSettings, 'delete' | 'cache' | 'errors'>;
  count: Pick<SvcSettings, 'delete' | 'cache' | 'errors'>;
}

/** Settings after the chain: every key filled in; subtrees turned off are `false`. */
export interface ResolvedSettings {
  readonly pagination: {
    readonly defaultLimit: number;
    readonly maxLimit: number;
    readonly strategy: PaginationStrategyName;
    readonly count: boolean;
    readonly since: { readonly field: string };
  };
  readonly errors: { readonly exposeInternals: boolean; readonly format?: ErrorFormat };
  readonly cache:
    { readonly ttl: number | false; readonly etag: boolean; readonly dependsOn?: readonly Function[] } | false;
  readonly delete: { readonly field: string; readonly strategy: DeleteStrategy } | false;
  readonly realtime:
    | {
        readonly events: Partial<Record<RealtimeEventId, boolean>>;
        readonly subscribableFields?: RealtimeSettings['subscribableFields'];
        readonly onPublishError?: RealtimeSettings['onPublishError'];
      }
    | false;
  readonly identifier?: IdentifierSettings;
}
