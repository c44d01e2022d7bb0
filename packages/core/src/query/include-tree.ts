/** The tree of relations a read embeds (`include=`), as the query resolves it and the embedding step walks it. */
import type { ResolvedComputed } from '../config/computed-fields';
import type { FilterConfig } from '../config/entity-config';
import type { EntityMetadata, RelationMetadata } from '../persistence/entity-metadata';
import type { RepositoryAdapter } from '../persistence/repository-adapter';
import type { FilterAllowlist } from './filter-allowlist';
import type { ReachableEntity } from './related-reach';

/** What embedding needs of a relation's target when an entity serves it: its scope, view, fields and adapter. */
export interface IncludeTarget extends ReachableEntity {
  readonly name: string;
  readonly metadata: EntityMetadata;
  readonly filterApply?: FilterConfig['apply'];
  readonly serverFilter: FilterAllowlist;
  readonly softDeleteOnReads: boolean;
  readonly select: { readonly fields: readonly string[] };
  readonly adapter: RepositoryAdapter;
  readonly computed: readonly ResolvedComputed[];
}

export interface IncludeNode {
  readonly path: string;
  readonly name: string;
  readonly relation: RelationMetadata;
  readonly strategy: 'batch' | 'key';
  /** The target's served config, when an entity serves the target: its select, scope and soft delete apply. */
  readonly target?: IncludeTarget;
  /** Fields served for each embedded row; undefined serves every column the target serves. */
  readonly select?: readonly string[];
  /** `relations.<name>.values`: over REST, the relation is served as this field of each row. */
  readonly values?: string;
  readonly children: IncludeNode[];
}

export interface IncludeRequest {
  readonly include?: string;
  /** `select[<path>]` values by path. */
  readonly selects?: ReadonlyMap<string, string>;
}
