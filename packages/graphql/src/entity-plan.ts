/**
 * What the schema serves of one entity, worked out once at bootstrap from its description: names, the fields of its
 * type, its relation fields, how `limit` and `offset` reach its pagination strategy, and its enabled operations.
 */
import {
  ConfigurationException,
  type EntityDescription,
  type FieldDescription,
  type OperationDescription,
  type SvcService,
} from '@svc/core';
import { STANDARD_OPERATIONS } from '@svc/core/spi';
import { graphqlFieldName, isGraphqlName, lowerFirst, pluralize } from './graphql-names';

/** How GraphQL's `limit` and `offset` reach the strategy: as they are, as `page[size]`/`page[number]`, or not at all. */
export type PagingMode = 'offset' | 'page' | 'none';

export interface RelationField {
  readonly name: string;
  /** The target entity's name (its GraphQL type). */
  readonly target: string;
  readonly many: boolean;
  /** Read by key (`read.strategy: key`): each included row holds only the target's key (`<Target>Key`). */
  readonly keysOnly: boolean;
}

export interface EntityPlan {
  readonly service: SvcService;
  readonly description: EntityDescription;
  /** The object type's name: the entity's name. */
  readonly typeName: string;
  /** `book`: the single-row query field. */
  readonly one: string;
  /** `books`: the list query field (English plural). */
  readonly many: string;
  /**
   * The columns of the object type, in column order, by their GraphQL names (`price_amount` for the column of an
   * embedded class `price.amount`; the description's `name` stays the column's own).
   */
  readonly columns: ReadonlyMap<string, FieldDescription>;
  /** What a read by id and write results serve, and what each list item serves. */
  readonly outputItem: ReadonlySet<string>;
  readonly outputList: ReadonlySet<string>;
  /** What the entity serves as an included row (`select.fields`). */
  readonly readable: ReadonlySet<string>;
  /** Includable relations whose target is in the schema, in declaration order. */
  readonly relations: ReadonlyMap<string, RelationField>;
  /**
   * The entity gives roles views of their own (`access`): the schema serves its widest view, and what a call reads
   * of it is the caller's (`field-access.ts`).
   */
  readonly perCaller: boolean;
  readonly paging: PagingMode;
  /** Standard operations that are on (not off, not disabled by the global map), as the description gives them. */
  readonly operations: readonly OperationDescription[];
  /** The one of them that answers a page of rows, if on. */
  readonly list?: OperationDescription;
  /** The one of them that reads a row by id, if on: what a write's answer is read again through. */
  readonly item?: OperationDescription;
}

/** The strategies GraphQL pages with limit and offset; cursor and since pages are not offsets, so they are refused. */
function pagingOf(description: EntityDescription): PagingMode {
  const { strategy, params } = description.pagination;
  const only = (...names: string[]) => params.length === names.length && names.every((name) => params.includes(name));
  if (only('limit', 'offset')) return 'offset';
  if (only('page[number]', 'page[size]')) return 'page';
  if (params.length === 0) return 'none';
  throw new ConfigurationException({
    entity: description.name,
    path: 'pagination.strategy',
    message: `is '${strategy}', which GraphQL cannot page: GraphQL lists take only limit and offset. Give ${description.name} the strategy 'offset' or 'page' at entity scope and page it over REST by ${strategy}, or leave it out of GraphQL with exclude: ['${description.name}'].`,
  });
}

/** The plan of one entity; `served` is the set of entity names the schema holds (relations to others are left out). */
export function planEntity(service: SvcService, served: ReadonlySet<string>): EntityPlan {
  const description = service.describe();
  const name = description.name;
  requireName(name, name, 'entity name');
  const outputItem = new Set(description.output.item);
  const outputList = new Set(description.output.list);
  const readable = new Set(description.select.fields);
  const columns = new Map<string, FieldDescription>();
  refuseSharedNames(name, description.fields);
  for (const field of description.fields) {
    if (!readable.has(field.name) && !outputItem.has(field.name) && !outputList.has(field.name)) continue;
    const graphqlName = graphqlFieldName(field.name);
    requireName(name, graphqlName, 'field');
    columns.set(graphqlName, field);
  }
  const kinds = new Map(description.relations.map((relation) => [relation.name, relation.kind]));
  const relations = new Map<string, RelationField>();
  for (const relation of description.include.relations) {
    if (!served.has(relation.target)) continue;
    requireName(name, relation.name, 'relation');
    const kind = kinds.get(relation.name);
    relations.set(relation.name, {
      name: relation.name,
      target: relation.target,
      many: kind === 'one-to-many' || kind === 'many-to-many',
      keysOnly: relation.keysOnly === true,
    });
  }
  // In the registry's order, whatever order the entity's operations map names them in.
  const order = (operation: OperationDescription) => STANDARD_OPERATIONS.findIndex(({ id }) => id === operation.id);
  const operations = description.operations
    .filter((operation) => operation.standard && operation.state === 'on')
    .sort((a, b) => order(a) - order(b));
  const list = operations.find((operation) => operation.answers === 'list');
  const item = operations.find((operation) => operation.kind === 'read' && operation.query === 'item');
  const one = lowerFirst(name);
  const plural = lowerFirst(pluralize(name));
  return {
    service,
    description,
    typeName: name,
    one,
    many: plural === one ? `${one}List` : plural,
    columns,
    outputItem,
    outputList,
    readable,
    relations,
    perCaller: description.roles !== undefined,
    paging: list ? pagingOf(description) : 'none',
    operations,
    ...(list ? { list } : {}),
    ...(item ? { item } : {}),
  };
}

/**
 * Two columns GraphQL would give one name (`price_amount` and the embedded `price.amount`): refused, whichever of them
 * a type, an input or an aggregate serves.
 */
function refuseSharedNames(entity: string, fields: readonly FieldDescription[]): void {
  const names = new Map<string, string>();
  for (const field of fields) {
    const graphqlName = graphqlFieldName(field.name);
    const taken = names.get(graphqlName);
    if (taken !== undefined) {
      throw new ConfigurationException({
        entity,
        path: 'graphql',
        message: `'${taken}' and '${field.name}' would both be the GraphQL field '${graphqlName}' (a path's dot becomes _). Rename one, or leave ${entity} out of GraphQL with exclude: ['${entity}'].`,
      });
    }
    names.set(graphqlName, field.name);
  }
}

function requireName(entity: string, name: string, what: string): void {
  if (isGraphqlName(name)) return;
  throw new ConfigurationException({
    entity,
    path: 'graphql',
    message: `${what} '${name}' is not a valid GraphQL name (letters, digits and _; not starting with a digit or __). Rename it, or leave ${entity} out of GraphQL with exclude: ['${entity}'].`,
  });
}
