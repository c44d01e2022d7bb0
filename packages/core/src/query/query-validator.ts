/**
 * `schema.input.query` / `operations.<id>.schema.query`: a schema class or Standard Schema validator that gates a
 * read's query parameters (flat `{ param: value }` from the wire, or the programmatic query object). Failures are a
 * 400 SVC_QUERY_INVALID naming each parameter; a class also closes the parameters it does not declare.
 */
import { isPlainObject } from '../config/validate-settings';
import { ConfigurationException } from '../errors/configuration-exception';
import { QueryInvalidException } from '../errors/svc-exception';
import type { QueryPairs } from './parse-query-string';
import {
  isStandardSchema,
  requireClassSchemas,
  standardValidator,
  type BodyValidator,
  type ClassSchemaAdapter,
} from '../schema/body-validators';

export function buildQueryValidator(args: {
  entity: string;
  path: string;
  value: unknown;
  classSchemas?: ClassSchemaAdapter;
}): BodyValidator | undefined {
  const { entity, path, value } = args;
  if (value === undefined) return undefined;
  if (isStandardSchema(value)) return standardValidator(value);
  if (typeof value !== 'function') {
    throw new ConfigurationException({ entity, path, message: 'takes a schema class or a Standard Schema validator.' });
  }
  const adapter = requireClassSchemas(args.classSchemas, entity, path);
  return (query) => adapter.validate(value, query, { partial: true });
}

/** Runs the gate; wire pairs are checked as a flat object (a repeated name keeps its last value). */
export async function checkQuery(
  validator: BodyValidator | undefined,
  query: QueryPairs | object | undefined,
): Promise<void> {
  if (!validator) return;
  const subject = Array.isArray(query) ? Object.fromEntries(query as QueryPairs) : isPlainObject(query) ? query : {};
  const outcome = await validator(subject);
  if ('errors' in outcome) {
    throw new QueryInvalidException(
      outcome.errors.map((error) => ({
        param: error.field ?? error.param ?? '',
        code: error.code,
        detail: error.detail,
      })),
    );
  }
}
