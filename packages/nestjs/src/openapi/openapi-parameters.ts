/**
 * The parameters of one operation: its path parameters, exactly the query parameters the entity takes (each filter
 * field with its allowed operators in bracket form, sort keys, select, include, search and the active pagination
 * strategy's own), and the conditional-request headers.
 */
import type { AggregateDescription, EntityDescription, OperandDescription, OperationDescription } from '@svc/core';
import { aggregateSortKeys, fieldsTaking, MEASURE_FUNCTIONS } from '@svc/core/spi';
import { columnSchema, type JsonSchema } from './openapi-schemas';

/** One OpenAPI parameter object. */
export interface ParameterObject {
  readonly name: string;
  readonly in: 'path' | 'query' | 'header';
  readonly required: boolean;
  readonly description?: string;
  /** What the value is; a parameter sent as JSON has `content` instead. */
  readonly schema?: JsonSchema;
  readonly content?: Record<string, { readonly schema: JsonSchema }>;
  readonly style?: 'form' | 'simple';
  readonly explode?: boolean;
  readonly allowEmptyValue?: boolean;
}

/** The parameters of an operation routed on `path` (Nest syntax, `:name` segments). */
export function parametersOf(
  description: EntityDescription,
  operation: OperationDescription,
  path: string,
  filterSchema: () => JsonSchema | undefined,
): ParameterObject[] {
  const parameters = pathParameters(description, path);
  if (operation.query === 'list') parameters.push(...listParameters(description, filterSchema()));
  if (operation.query === 'item') parameters.push(...itemParameters(description));
  if (operation.query === 'filter') parameters.push(...batchFilterParameters(description, filterSchema()));
  if (operation.aggregate) parameters.push(...aggregateParameters(description, operation.aggregate, filterSchema()));
  if (operation.relation?.action === 'remove' && !path.endsWith(':memberId')) {
    parameters.push({
      name: 'ids',
      in: 'query',
      required: true,
      description: 'The members to remove, as a comma list.',
      schema: { type: 'array', items: { type: 'string' }, minItems: 1 },
      style: 'form',
      explode: false,
    });
  }
  if (operation.kind === 'read' && operation.cardinality === 'one' && operation.route?.method === 'GET') {
    parameters.push(header('If-None-Match', 'Answer 304 with no body while the row still has one of these ETags.'));
  }
  if (operation.conditional?.ifMatch === 'checked') {
    parameters.push(header('If-Match', 'Write only if the row still has this ETag; otherwise 412.'));
  }
  return parameters;
}

function header(name: string, description: string): ParameterObject {
  return { name, in: 'header', required: false, description, schema: { type: 'string' } };
}

/** `:id` is the lookup field (`identifier.field` when set), typed by its column; other segments are strings. */
function pathParameters(description: EntityDescription, path: string): ParameterObject[] {
  const names = [...path.matchAll(/:(\w+)/g)].map((match) => match[1]!);
  return names.map((name) => {
    const field =
      name === description.lookup.param && description.lookup.fields.length === 1
        ? description.fields.find((candidate) => candidate.name === description.lookup.fields[0])
        : undefined;
    return {
      name,
      in: 'path' as const,
      required: true,
      description:
        name === description.lookup.param
          ? description.lookup.fields.length > 1
            ? `The ${description.name}'s ${description.lookup.fields.join(', ')}, comma separated, in that order.`
            : `The ${description.name}'s ${description.lookup.fields[0]}.`
          : name === 'memberId'
            ? 'The member to remove.'
            : `The ${name}.`,
      schema: field ? columnSchema({ ...field, nullable: false }, 'input') : { type: 'string' },
    };
  });
}

/** `filter[<field>][<op>]` for each filterable field and each operator it allows. */
export function filterParameters(description: EntityDescription): ParameterObject[] {
  const out: ParameterObject[] = [];
  for (const field of description.filter.fields) {
    const value = columnSchema({ ...field, nullable: false }, 'input');
    for (const operator of field.operators) {
      const operand = description.filter.operands[operator];
      if (!operand) continue;
      out.push({
        name: `filter[${field.name}][${operator}]`,
        in: 'query',
        required: false,
        ...filterValue(operand, value),
      });
    }
  }
  return out;
}

/** A filter parameter's value, by the operand's shape: a comma list for `list` and `pair`. */
function filterValue(
  operand: OperandDescription,
  value: JsonSchema,
): Pick<ParameterObject, 'schema' | 'style' | 'explode' | 'description'> {
  const description = `${operand.help.charAt(0).toUpperCase()}${operand.help.slice(1)}.`;
  switch (operand.shape) {
    case 'flag':
      return { description, schema: { type: 'boolean' } };
    case 'pattern':
      return { description, schema: { type: 'string', maxLength: operand.maxLength } };
    case 'list':
    case 'pair':
      return {
        description: `${description} ${operand.shape === 'pair' ? 'Two values, low and high, comma separated.' : 'A comma list of values.'}`,
        schema: { type: 'array', items: value, minItems: operand.minItems, maxItems: operand.maxItems },
        style: 'form',
        explode: false,
      };
    case 'value':
      return { description, schema: value };
  }
}

/** A comma list of names from `values` (`sort=-pages,title`, `select=title,pages`, `include=author`). */
function commaList(name: string, values: readonly string[], description: string): ParameterObject {
  return {
    name,
    in: 'query',
    required: false,
    description,
    schema: { type: 'array', items: { type: 'string', enum: [...values] }, uniqueItems: true },
    style: 'form',
    explode: false,
  };
}

function selectParameter(description: EntityDescription): ParameterObject[] {
  return description.select.fields.length > 0
    ? [commaList('select', description.select.fields, 'Serve only these fields.')]
    : [];
}

function includeParameter(description: EntityDescription): ParameterObject[] {
  const relations = description.include.relations.map((relation) => relation.name);
  return relations.length > 0 ? [commaList('include', relations, 'Embed these relations in each row.')] : [];
}

/** A read by id takes `select` and `include` only. */
function itemParameters(description: EntityDescription): ParameterObject[] {
  return [...selectParameter(description), ...includeParameter(description)];
}

/** A batch write's rows: the filter, required, in JSON form (or bracket form), and nothing else. */
function batchFilterParameters(description: EntityDescription, filter: JsonSchema | undefined): ParameterObject[] {
  const json: ParameterObject[] = filter
    ? [
        {
          name: 'filter',
          in: 'query',
          // Required here, so a client never sends a batch without one; the bracket form may stand in for it.
          required: true,
          description:
            'The rows to change, in JSON form (the bracket parameters may stand in for it): it may match at most `batch.maxAffected` rows.',
          content: { 'application/json': { schema: { ...filter, minProperties: 1 } } },
        },
      ]
    : [];
  return [...json, ...filterParameters(description)];
}

/**
 * An aggregate's own parameters (groupBy, count, each function's fields, sort over groups, limit and offset over
 * groups), then the list's filter, search and row view.
 */
function aggregateParameters(
  description: EntityDescription,
  aggregate: AggregateDescription,
  filter: JsonSchema | undefined,
): ParameterObject[] {
  const out: ParameterObject[] = [];
  if (aggregate.groupBy.length > 0) {
    const fields = aggregate.groupBy.map((group) => group.field);
    out.push(commaList('groupBy', fields, 'One group per distinct combination of these fields (none: one group).'));
  }
  out.push({
    name: 'count',
    in: 'query',
    required: false,
    description: 'Every group answers its row count; the parameter is taken bare for clarity.',
    schema: { type: 'boolean' },
    allowEmptyValue: true,
  });
  for (const fn of MEASURE_FUNCTIONS) {
    const fields = fieldsTaking(aggregate, fn);
    if (fields.length > 0) out.push(commaList(fn, fields, `Compute ${fn} of these fields in each group.`));
  }
  out.push(
    // The groupBy fields order only a call that groups by them, which a parameter's schema cannot say: they are in
    // the description, and the enum holds the keys every call takes.
    commaList(
      'sort',
      aggregateSortKeys(aggregate, { groups: false }),
      'Order the groups by `count` or a function of a field (`sum.pages`, answered too); a field the call groups by may be named as well. `-` descends.',
    ),
    {
      name: 'limit',
      in: 'query',
      required: false,
      description: 'Groups per page.',
      schema: { type: 'integer', minimum: 1, maximum: aggregate.maxGroups, default: aggregate.maxGroups },
    },
    {
      name: 'offset',
      in: 'query',
      required: false,
      description: 'Groups to skip.',
      schema: { type: 'integer', minimum: 0, maximum: 2147483647 },
    },
  );
  const list = listParameters(description, filter);
  const taken = new Set(['filter', 'search[query]', 'withDeleted', 'onlyDeleted']);
  return [...out, ...list.filter((parameter) => taken.has(parameter.name) || parameter.name.startsWith('filter['))];
}

function listParameters(description: EntityDescription, filter: JsonSchema | undefined): ParameterObject[] {
  const out: ParameterObject[] = [];
  if (filter) {
    // A JSON value in the query string: OpenAPI's `content` map, which Swagger UI edits as JSON and clients serialise.
    out.push({
      name: 'filter',
      in: 'query',
      required: false,
      description:
        'The filter in JSON form, with `and`, `or` and `not` groups: `{"or":[{"title":{"eq":"x"}},{"pages":{"gte":100}}]}`. ' +
        'ANDed with the bracket parameters; the same fields and operators are allowed.',
      content: { 'application/json': { schema: filter } },
    });
  }
  out.push(...filterParameters(description));
  if (!description.pagination.ownsSort && description.sort.fields.length > 0) {
    const keys = description.sort.fields.flatMap((field) => [field, `-${field}`]);
    out.push(commaList('sort', keys, 'Order by these fields; a leading `-` sorts descending.'));
  }
  out.push(...selectParameter(description), ...includeParameter(description));
  if (description.search) {
    out.push({
      name: 'search[query]',
      in: 'query',
      required: false,
      description: `Search ${description.search.fields.join(', ')} (${description.search.mode === 'words' ? 'every word must match' : 'substring'}).`,
      schema: { type: 'string', maxLength: description.filter.limits.maxLikePatternLength },
    });
  }
  out.push(...paginationParameters(description.pagination));
  if (description.softDelete) {
    out.push(
      {
        name: 'withDeleted',
        in: 'query',
        required: false,
        description: 'Include deleted rows.',
        schema: { type: 'boolean' },
      },
      {
        name: 'onlyDeleted',
        in: 'query',
        required: false,
        description: 'Only deleted rows.',
        schema: { type: 'boolean' },
      },
    );
  }
  return out;
}

function paginationParameters(pagination: EntityDescription['pagination']): ParameterObject[] {
  const max = pagination.maxLimit > 0 ? { maximum: pagination.maxLimit } : {};
  const limit = pagination.defaultLimit > 0 ? { default: pagination.defaultLimit } : {};
  const byName: Record<string, Omit<ParameterObject, 'name' | 'in' | 'required'>> = {
    limit: { description: 'Rows per page.', schema: { type: 'integer', minimum: 1, ...max, ...limit } },
    offset: { description: 'Rows to skip.', schema: { type: 'integer', minimum: 0, maximum: 2147483647 } },
    'page[number]': { description: 'The page, from 1.', schema: { type: 'integer', minimum: 1, maximum: 2147483647 } },
    'page[size]': { description: 'Rows per page.', schema: { type: 'integer', minimum: 1, ...max, ...limit } },
    cursor: { description: 'The `meta.nextCursor` of the previous page.', schema: { type: 'string' } },
    since: {
      description: `The \`meta.nextSince\` of the previous poll, or \`<${pagination.sinceField ?? 'value'}>|<id>\` of a known row.`,
      schema: { type: 'string' },
    },
  };
  return pagination.params
    .filter((name) => byName[name] !== undefined)
    .map((name) => ({ name, in: 'query' as const, required: false, ...byName[name]! }));
}
