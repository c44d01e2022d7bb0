/**
 * The definition of a standard operation: its facts (route, what it takes and answers, its event, conditional
 * headers, settings keys, wording and tool hints) and its stages, in one file per operation under `definitions/`.
 */
import type { OperationFacts } from '../config/operation-facts';
import type { ResolvedEntity, ResolvedOperation } from '../entity/resolved-entity';
import type { Stage } from '../pipeline/stage';
import { ConfigurationException } from '../errors/configuration-exception';

/** Builds an operation's stage list for one entity, from what the configuration settles. */
export type StageListOf = (entity: ResolvedEntity, operation: ResolvedOperation) => Stage[];

export interface OperationDefinition extends OperationFacts {
  /** Its stages: a policy, a query gate or a one-statement write only where the configuration calls for them. */
  readonly stages: StageListOf;
  /** Its stages when a handler replaces the built-in read or write; the key, the checks and the guard stay. */
  readonly replaced: StageListOf;
  /** Another form of the call, chosen per request: patchOne's RFC 6902 document. */
  readonly jsonPatch?: (entity: ResolvedEntity) => Stage[];
}

/** A definition, frozen. */
export function defineOperation<const D extends OperationDefinition>(definition: D): D {
  return Object.freeze(definition);
}

/**
 * The `replaced` of an operation a handler cannot replace (a batch write, an aggregate): the handler stops the boot,
 * naming it. A batch's is refused earlier, with its one-row operation's (`counterpart`).
 */
export const notReplaceable: StageListOf = (entity, operation) => {
  throw new ConfigurationException({
    entity: entity.name,
    path: `operations.${operation.id}.handler`,
    message: `replaces ${operation.id}, which a handler cannot replace. Remove it, or write a custom operation.`,
  });
};
