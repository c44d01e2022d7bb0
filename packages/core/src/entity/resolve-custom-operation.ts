/** Resolves a custom operation entry into the same `ResolvedOperation` the engine runs standard operations from. */
import { ConfigurationException } from '../errors/configuration-exception';
import type { EntityMetadata } from '../persistence/entity-metadata';
import type { ListQueryConfig } from '../query/list-query-config';
import {
  isStandardSchema,
  inputJsonSchemaOf,
  requireClassSchemas,
  standardValidator,
  type BodyValidator,
} from '../schema/body-validators';
import { outputValidatorOf } from '../schema/output-slots';
import { buildQueryValidator } from '../query/query-validator';
import type { CustomOperationConfig, OperationHandler } from '../config/entity-config';
import type { ResolveEntityArgs } from './resolved-entity';
import type { OperationState } from '../config/resolve-operations';
import type { ResolvedOperation } from './resolved-entity';
import type { ResolvedSettings } from '../config/svc-settings';
import { settingsRulesOf } from './validate-custom-operation';

export function resolveCustomOperation(args: {
  scope: { name: string; metadata: EntityMetadata; args: ResolveEntityArgs };
  id: string;
  state: OperationState;
  config: CustomOperationConfig;
  settings: ResolvedSettings;
  softDelete: boolean;
  list?: ListQueryConfig;
}): ResolvedOperation {
  const { scope, id, config } = args;
  const entity = scope.name;
  const handler = scope.args.handlers?.[id] ?? config.handler;
  if (!handler) {
    throw new ConfigurationException({
      entity,
      path: `operations.${id}`,
      message: `has neither a handler nor an @Override('${id}') method on the controller. Add one of them.`,
    });
  }
  const kind = config.kind ?? 'write';
  const output = config.schema?.output;
  const path = `operations.${id}.schema`;
  return Object.freeze({
    id,
    settingsAs: settingsRulesOf(config, scope.args.operationFacts),
    reads: kind === 'read',
    route: config.meta?.routes,
    state: args.state,
    settings: args.settings,
    scopes: [scope.args.global, scope.args.config, config],
    softDelete: args.softDelete,
    policy:
      config.policy === false ? undefined : (config.policy ?? scope.args.config.policy ?? scope.args.globalPolicy),
    handler: handler as OperationHandler,
    queryValidator:
      kind === 'read'
        ? buildQueryValidator({
            entity,
            path: `${path}.query`,
            value: config.schema?.query,
            classSchemas: scope.args.classSchemas,
          })
        : undefined,
    outputValidator: outputValidatorOf(output, `${path}.output`),
    list: args.list,
    custom: Object.freeze({
      kind,
      cardinality: config.cardinality ?? 'one',
      realtimeEvent: config.realtimeEvent,
      input: kind === 'write' ? inputValidator(entity, `${path}.input`, config.schema?.input, scope.args) : undefined,
      inputJsonSchema: kind === 'write' ? inputJsonSchemaOf(config.schema?.input, scope.args.classSchemas) : undefined,
      outputClassFields: typeof output === 'function' ? runtimeFields(entity, `${path}.output`, output) : undefined,
      outputList: Array.isArray(output) ? Object.freeze([...(output as string[])]) : undefined,
    }),
  });
}

/** A custom operation has no root slot: its own `schema.input` validates the body, whatever its shape. */
function inputValidator(
  entity: string,
  path: string,
  value: unknown,
  args: ResolveEntityArgs,
): BodyValidator | undefined {
  if (value === undefined) return undefined;
  if (isStandardSchema(value)) return standardValidator(value);
  const adapter = requireClassSchemas(args.classSchemas, entity, path);
  return (body) => adapter.validate(value as Function, body, { partial: false });
}

function runtimeFields(entity: string, path: string, shape: Function): readonly string[] {
  try {
    return Object.freeze(Object.keys(new (shape as new () => object)()));
  } catch (error) {
    throw new ConfigurationException({
      entity,
      path,
      message: `the class ${shape.name} cannot be constructed without arguments (${String(error)}).`,
    });
  }
}

/** An `@Override(<id>)` for an operation the entity does not serve would never run: refused, naming it. */
export function refuseUnknownOverrides(
  entity: string,
  operations: ReadonlyMap<string, ResolvedOperation>,
  handlers: Readonly<Record<string, OperationHandler>> | undefined,
): void {
  const overridable = [...operations.values()].filter((operation) => !operation.relationWrite).map((op) => op.id);
  for (const id of Object.keys(handlers ?? {})) {
    if (!overridable.includes(id)) {
      throw new ConfigurationException({
        entity,
        path: `@Override('${id}')`,
        message: operations.has(id)
          ? `names a relation array write, which has no replaceable handler. Use a custom operation instead.`
          : `overrides an operation ${entity} does not serve. Name one of ${overridable.join(', ')}.`,
      });
    }
  }
}
