/** The to-one relations a write can reference by id (`authorId`, `{ author: { id } }`), found once at bootstrap. */
import type { EntityMetadata, RelationMetadata } from '../persistence/entity-metadata';

export interface ToOneReference {
  readonly relation: RelationMetadata;
  /** Each foreign-key column: the mapped property on this entity (if any) and the target property it references. */
  readonly columns: readonly { readonly property?: string; readonly referencedProperty: string }[];
}

export function toOneReferences(metadata: EntityMetadata): readonly ToOneReference[] {
  return metadata.relations
    .filter((relation) => relation.owning && (relation.kind === 'many-to-one' || relation.kind === 'one-to-one'))
    .filter((relation) => relation.joinColumns.length > 0)
    .map((relation) => ({ relation, columns: relation.joinColumns }));
}
