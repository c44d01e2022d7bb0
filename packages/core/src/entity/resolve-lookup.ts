/** `identifier.field`: the route parameter and the fields a single row is looked up by, checked at bootstrap. */
import { ConfigurationException } from '../errors/configuration-exception';
import type { EntityMetadata } from '../persistence/entity-metadata';
import { suggestion } from '../config/did-you-mean';
import type { ResolvedEntity } from './resolved-entity';
import type { ResolvedSettings } from '../config/svc-settings';

export function resolveLookup(
  entity: string,
  settings: ResolvedSettings,
  metadata: EntityMetadata,
): ResolvedEntity['lookup'] {
  const field = settings.identifier?.field;
  if (field === undefined) return { param: 'id', fields: metadata.primaryKeys };
  const column = metadata.columns.find((candidate) => candidate.property === field);
  const fail = (message: string) => {
    throw new ConfigurationException({ entity, path: 'identifier.field', message });
  };
  if (metadata.primaryKeys.length > 1) fail(`cannot be used on ${entity}, whose primary key is composite.`);
  if (!column) {
    const relation = metadata.relations.some((candidate) => candidate.property === field);
    fail(
      relation
        ? `'${field}' is a relation; name a scalar column.`
        : `'${field}' is not a column of ${entity}.${suggestion(
            field,
            metadata.columns.map((c) => c.property),
          )}`,
    );
  }
  if (column!.embedded)
    fail(`'${field}' is a column of an embedded class, whose path cannot name a route parameter; name a plain column.`);
  if (!['string', 'uuid', 'integer', 'number', 'bigint', 'enum'].includes(column!.kind))
    fail(`'${field}' is a ${column!.kind} column; name a string or number column.`);
  return { param: field, fields: [field] };
}
