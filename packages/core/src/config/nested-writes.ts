/**
 * `relations.<name>.write.nested`: which relations take nested writes in the parent's create and update bodies, in
 * which forms, how deep and how many members, resolved and checked once at bootstrap.
 */
import { ConfigurationException } from '../errors/configuration-exception';
import type { ColumnMetadata, EntityMetadata, RelationMetadata } from '../persistence/entity-metadata';
import type { RepositoryAdapter } from '../persistence/repository-adapter';
import { DEFAULT_MAX_MEMBERS } from './array-relations';
import { suggestion } from './did-you-mean';
import type { RelationConfigInput } from './entity-config';
import { isPlainObject } from './validate-settings';

export type NestedForm = 'create' | 'connect' | 'connectOrCreate' | 'update';
export const NESTED_FORMS: readonly NestedForm[] = ['create', 'connect', 'connectOrCreate', 'update'];

export interface NestedRelation {
  readonly relation: RelationMetadata;
  /** An array of forms (one-to-many, many-to-many), or one form (an owning to-one). */
  readonly toMany: boolean;
  readonly forms: ReadonlySet<NestedForm>;
  /** The unique set of the target's fields `connectOrCreate` matches rows by. */
  readonly matchBy?: readonly string[];
  /** How deep a nested write through this relation may go (1: the related row only). */
  readonly maxDepth: number;
  readonly maxMembers: number;
  /** The target's key, which `connect` and `update` name a row by. */
  readonly targetKey: ColumnMetadata;
  /** A one-to-many's relation back from the target, which each created or connected member is set to. */
  readonly inverse?: string;
  /** `relations.<name>.values`: a list of this field's values replaces the members (connected, or created). */
  readonly values?: string;
}

/** @default 2: a nested row, and the nested rows of its own relations. */
export const DEFAULT_NESTED_DEPTH = 2;
const MAX_NESTED_DEPTH = 5;
const MAX_MEMBERS = 10_000;

export function resolveNestedRelations(
  entity: string,
  metadata: EntityMetadata,
  relations: { readonly [relation: string]: RelationConfigInput | undefined } | undefined,
  adapter: RepositoryAdapter,
): ReadonlyMap<string, NestedRelation> {
  const out = new Map<string, NestedRelation>();
  for (const [name, entry] of Object.entries(relations ?? {})) {
    const write = isPlainObject(entry) && isPlainObject(entry.write) ? entry.write : undefined;
    if (write?.nested === undefined) continue;
    const path = `relations.${name}.write.nested`;
    const fail = (message: string, at = path): never => {
      throw new ConfigurationException({ entity, path: at, message });
    };
    const relation = metadata.relations.find((candidate) => candidate.property === name);
    if (!relation) continue; // an unknown relation name is reported by the include config
    const nested = write.nested as unknown;
    if (!isPlainObject(nested) || Object.keys(nested).length === 0)
      fail("must name its forms, for example { create: true, connect: true, connectOrCreate: ['name'] }.");
    const forms = new Set<NestedForm>();
    for (const [form, value] of Object.entries(nested as Record<string, unknown>)) {
      if (!NESTED_FORMS.includes(form as NestedForm))
        fail(`is not a nested form.${suggestion(form, NESTED_FORMS)}`, `${path}.${form}`);
      if (form === 'connectOrCreate' ? !Array.isArray(value) || value.length === 0 : value !== true)
        fail(
          form === 'connectOrCreate'
            ? "must list a unique set of the target's fields, for example ['name']."
            : 'must be true.',
          `${path}.${form}`,
        );
      forms.add(form as NestedForm);
    }
    const toMany = relation.kind === 'one-to-many' || relation.kind === 'many-to-many';
    if (!toMany && !(relation.owning && relation.joinColumns.length === 1))
      fail('takes an owning to-one relation with one foreign-key column, or a to-many relation.');
    if (toMany && !adapter.updateRelation)
      fail(`needs an adapter that writes relations (updateRelation); ${adapter.metadata.name}'s does not.`);
    if (relation.kind === 'one-to-many' && !relation.inverse)
      fail(`needs the relation back from ${relation.targetName} (the many-to-one its members are written through).`);
    const target = adapter.metadataOf?.(relation.target);
    if (!target) return fail(`needs the metadata of ${relation.targetName}, which this adapter cannot read.`);
    if (target.primaryKeys.length !== 1)
      fail(`${target.name} has a composite primary key; nested rows are named by a single key.`);
    const targetKey = target.columns.find((column) => column.property === target.primaryKeys[0])!;
    const matchBy = (nested as { connectOrCreate?: string[] }).connectOrCreate;
    if (matchBy) checkUniqueSet(target, matchBy, `${path}.connectOrCreate`, fail);
    const values = (entry as RelationConfigInput).values;
    if (values !== undefined && (matchBy?.length !== 1 || matchBy[0] !== values))
      fail(
        `takes a list of ${values} values (relations.${name}.values) only as connectOrCreate: ['${values}'].`,
        `${path}.connectOrCreate`,
      );
    const bounded = (key: 'maxDepth' | 'maxMembers', fallback: number, max: number): number => {
      const value = write[key] ?? fallback;
      if (!Number.isInteger(value) || (value as number) < 1 || (value as number) > max)
        fail(`must be an integer from 1 to ${max}.`, `relations.${name}.write.${key}`);
      return value as number;
    };
    out.set(name, {
      relation,
      toMany,
      forms,
      ...(matchBy ? { matchBy: [...matchBy] } : {}),
      maxDepth: bounded('maxDepth', DEFAULT_NESTED_DEPTH, MAX_NESTED_DEPTH),
      maxMembers: bounded('maxMembers', DEFAULT_MAX_MEMBERS, MAX_MEMBERS),
      targetKey,
      ...(relation.kind === 'one-to-many' ? { inverse: relation.inverse } : {}),
      ...(values !== undefined ? { values } : {}),
    });
  }
  return out;
}

/** `connectOrCreate` matches by fields the database keeps unique together: else two rows could match. */
function checkUniqueSet(
  target: EntityMetadata,
  fields: readonly unknown[],
  path: string,
  fail: (message: string, at?: string) => never,
): void {
  const columns = target.columns.map((column) => column.property);
  for (const field of fields) {
    if (typeof field !== 'string' || !columns.includes(field))
      fail(`'${String(field)}' is not a column of ${target.name}.${suggestion(String(field), columns)}`, path);
  }
  const wanted = [...(fields as string[])].sort().join(',');
  const sets = [target.primaryKeys, ...(target.uniques ?? [])].map((set) => [...set].sort().join(','));
  if (!sets.includes(wanted))
    fail(
      `${(fields as string[]).join(', ')} must be unique in ${target.name} (a unique column, index or constraint), so one row at most matches.`,
      path,
    );
}
