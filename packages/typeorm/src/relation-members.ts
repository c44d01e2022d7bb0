/**
 * Changes the members of a to-many relation of one row (a relation array write): each added id checked to exist, then
 * the removals and the additions written in chunks.
 */
import { ConflictException, UnresolvedRelationException } from '@svc/core';
import type { UpdateRelationArgs } from '@svc/core/spi';
import type { EntityManager } from 'typeorm';
import type { EntityTable } from './entity-table';
import { SqlParameters } from './filter-sql';
import type { StatementKind } from './map-driver-error';

export interface RelationMembersContext {
  readonly manager: EntityManager;
  readonly table: EntityTable;
  /** The entity class the relation belongs to. */
  readonly target: Function;
  /** Runs a statement and maps whatever the driver throws. */
  readonly guard: <T>(statement: StatementKind, run: () => Promise<T>) => Promise<T>;
}

/** Members written or looked up per statement. */
const MEMBER_CHUNK = 200;

export async function updateRelationMembers(context: RelationMembersContext, args: UpdateRelationArgs): Promise<void> {
  const { manager, table, guard } = context;
  const relation = table.orm.findRelationWithPropertyPath(args.relation);
  if (!relation || !(relation.isOneToMany || relation.isManyToMany))
    throw new Error(`@svc/typeorm: '${args.relation}' is not a to-many relation of ${table.name}.`);
  const target = table.tableOf(relation.inverseEntityMetadata.target as Function);
  const [targetKey] = target.primary;
  if (relation.isOneToMany && args.remove.length > 0 && relation.inverseRelation?.isNullable === false) {
    throw new ConflictException(
      `A ${target.name} cannot be detached from ${table.name}.${args.relation}: its ${relation.inverseRelation.propertyPath} is required. Delete it, or attach it elsewhere.`,
    );
  }
  if (args.add.length > 0) {
    const present = new Set<string>();
    for (const ids of chunks(args.add, MEMBER_CHUNK)) {
      const params = new SqlParameters();
      const found = await guard('read', () =>
        manager
          .createQueryBuilder()
          .select(`${targetKey!.quoted}`, 'svc_key')
          .from(relation.inverseEntityMetadata.target, 'svc_target')
          .where(`${targetKey!.quoted} IN (${ids.map((id) => params.bind(id)).join(', ')})`, params.values)
          .getRawMany<{ svc_key: unknown }>(),
      );
      for (const row of found) present.add(String(row.svc_key));
    }
    const missing = args.add.filter((id) => !present.has(String(id)));
    if (missing.length > 0) {
      throw new UnresolvedRelationException(
        `${args.relation}: no ${target.name} with ${targetKey!.property} ${missing.map((id) => JSON.stringify(id)).join(', ')}. Use ids that exist.`,
      );
    }
  }
  // In chunks: TypeORM writes a removal as one OR of key pairs and an addition as one multi-row INSERT, which past a
  // few hundred members would outgrow SQLite's expression depth and any database's bound-parameter limit.
  const builder = () => manager.createQueryBuilder().relation(context.target, args.relation).of(args.key);
  for (const ids of chunks(args.remove, MEMBER_CHUNK)) await guard('write', () => builder().remove([...ids]));
  for (const ids of chunks(args.add, MEMBER_CHUNK)) await guard('write', () => builder().add([...ids]));
}

function chunks<T>(items: readonly T[], size: number): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < items.length; start += size) out.push(items.slice(start, start + size));
  return out;
}
