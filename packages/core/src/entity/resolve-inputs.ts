/** The root write slots of one entity (`schema.input.create|update|patch`), and the array members an update writes. */
import { splitMemberFields, type ArrayRelation } from '../config/array-relations';
import type { EntityMetadata } from '../persistence/entity-metadata';
import { resolveInputSlot } from '../schema/resolve-input-slot';
import type { ResolveEntityArgs, ResolvedEntity } from './resolved-entity';

/** The entity's root write slots; patch falls back to update's configuration. */
export function resolveInputs(
  entity: string,
  metadata: EntityMetadata,
  args: ResolveEntityArgs,
  arrays: ReadonlyMap<string, ArrayRelation>,
): ResolvedEntity['input'] & { members: ReadonlySet<string> } {
  const input = args.config.schema?.input;
  const slot = (name: 'create' | 'update' | 'patch', value: unknown, path: string) =>
    resolveInputSlot({ entity, metadata, slot: name, value, path, classSchemas: args.classSchemas });
  const update = splitMemberFields(input?.update, arrays);
  const patch = input?.patch === undefined ? update : splitMemberFields(input.patch, arrays);
  return {
    create: slot('create', input?.create, 'schema.input.create'),
    update: slot('update', update.slot, 'schema.input.update'),
    patch: slot('patch', patch.slot, input?.patch ? 'schema.input.patch' : 'schema.input.update'),
    members: update.writable,
  };
}
