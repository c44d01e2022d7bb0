/** Everything a list read needs to resolve a request, built once per operation at bootstrap. */
import type { FilterExpression, SortConfig, FilterConfig } from '../config/entity-config';
import type { FilterAllowlist } from './filter-allowlist';
import type { FilterNode, SortKey } from '../persistence/query-ast';
import type { SortAllowlist } from './resolve-sort';
import type { SearchConfig } from './search-config';
import type { SelectConfig } from './select-config';
import type { ColumnMetadata } from '../persistence/entity-metadata';
import type { PaginationStrategy } from '../pagination/pagination-strategy';
import type { IncludeNode, IncludeRequest } from './include-tree';
import type { QueryErrors } from '../errors/query-errors';
import type { ApplyArgs } from '../config/entity-config';

export interface ListQueryConfig {
  readonly entity: string;
  readonly filter: FilterAllowlist;
  /** Every own column with every operator its kind takes: what server-side `filter.apply` may use. */
  readonly serverFilter: FilterAllowlist;
  readonly filterDefault?: FilterNode;
  /** `filter.params`: plain query parameters by name, each the filter path it tests for equality. */
  readonly filterParams?: ReadonlyMap<string, string>;
  readonly filterApply?: FilterConfig['apply'];
  readonly sort: SortAllowlist;
  readonly sortDefault: readonly SortKey[];
  readonly sortApply?: SortConfig['apply'];
  readonly select: SelectConfig;
  /** Own columns by property. */
  readonly columns: ReadonlyMap<string, ColumnMetadata>;
  /** Why a sort key may not carry a cursor, or undefined; built once here, used by keyset strategies. */
  readonly refuseCursorKey: (field: string) => string | undefined;
  /** The output slot of this read (schema.output.item or .list), which replaces the select projection. */
  readonly outputFields?: readonly string[];
  /** Resolves `include=` and `select[<relation>]=` against the entity and its peers. */
  readonly include?: (request: IncludeRequest, errors: QueryErrors, args: ApplyArgs) => Promise<IncludeNode[]>;
  /** The `filter.apply` scope of the entity a relation path leads to, when that entity is served by a peer. */
  /**
   * The related entity's scope for a relation path (undefined: none), which refuses a `path` to a field the caller's
   * role does not read there as an unknown field.
   */
  readonly relationScope?: (
    relation: string,
    args: ApplyArgs,
    path?: string,
    param?: 'filter' | 'sort' | 'groupBy',
    /** The client named the path (else the server did: a path the role may not read then matches nothing). */
    named?: boolean,
  ) => Promise<FilterNode | undefined>;
  /** Undefined: search is off and `search[query]` is refused. */
  readonly search?: SearchConfig;
  /** The entity has a soft-delete marker and the read hides deleted rows (withDeleted/onlyDeleted are taken). */
  readonly softDelete: boolean;
  readonly pagination: {
    readonly strategy: PaginationStrategy;
    readonly defaultLimit: number;
    readonly maxLimit: number;
    readonly count: boolean;
    readonly sinceField: string;
  };
}

export type { FilterExpression };
