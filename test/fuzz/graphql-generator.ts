/**
 * Random GraphQL requests for the GraphQL fuzz suite, drawn from the served schema: selections of real and misspelled
 * fields to any depth, aliases (a few, or hundreds of one field), inline and named fragments (spread many times, on
 * the wrong type, cyclic, undefined, doubling at each level), introspection (whole-schema, by name, nested type
 * chains, many times over), arguments of every kind and value (variables with and without defaults, wrong types,
 * huge numbers), and documents cut short or made of junk. Queries only: no case writes.
 */
import {
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isScalarType,
  Kind,
  parse,
  print,
  type GraphQLArgument,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import type { Prng } from './query-generator';

export interface GraphqlCase {
  readonly kind: string;
  readonly query: string;
  readonly variables?: Record<string, unknown>;
}

/** GraphiQL's fragments (FullType and those it spreads), to alias whole-schema introspection with. */
const INTROSPECTION_FRAGMENTS = parse(getIntrospectionQuery({ descriptions: true }))
  .definitions.filter((definition) => definition.kind === Kind.FRAGMENT_DEFINITION)
  .map((definition) => print(definition))
  .join('\n');

const JUNK_INTS: readonly unknown[] = [-1, 0, 1, 3, 20, 99, 100, 101, 2147483647, 2147483648, 1e21, -0];
const JUNK_VALUES: readonly unknown[] = ['x', '', '1', true, null, 1.5, [], {}, ['a'], { eq: 1 }, '__proto__'];

export class GraphqlGenerator {
  private variableCount = 0;

  constructor(
    private readonly rng: Prng,
    private readonly schema: GraphQLSchema,
  ) {}

  next(): GraphqlCase {
    this.variableCount = 0;
    const roll = this.rng.float();
    if (roll < 0.4) return this.selection();
    if (roll < 0.5) return this.aliasBomb();
    if (roll < 0.62) return this.introspection();
    if (roll < 0.74) return this.fragmentGames();
    if (roll < 0.86) return this.variableGames();
    return this.junk();
  }

  /** A query of one to four root fields, each with arguments and a random selection. */
  private selection(): GraphqlCase {
    const fragments: string[] = [];
    const variables: Record<string, unknown> = {};
    const definitions: string[] = [];
    const roots = Array.from({ length: this.rng.int(1, 4) }, () =>
      this.rootField(fragments, variables, definitions, this.rng.int(1, 4)),
    );
    return {
      kind: 'selection',
      query: `${definitions.length > 0 ? `query Q(${definitions.join(', ')}) ` : ''}{ ${roots.join(' ')} } ${fragments.join(' ')}`,
      variables,
    };
  }

  private rootField(fragments: string[], variables: Record<string, unknown>, definitions: string[], depth: number) {
    const query = this.schema.getQueryType()!;
    const roll = this.rng.float();
    if (roll < 0.08) return `__typename`;
    if (roll < 0.16) return `${this.alias()}__type(name: "${this.typeName()}") { name kind fields { name } }`;
    const field = this.rng.pick(Object.values(query.getFields()));
    const args = field.args
      .filter(() => this.rng.chance(0.6))
      .map((argument) => `${argument.name}: ${this.argumentValue(argument, variables, definitions)}`);
    const named = getNamedType(field.type);
    const body = isObjectType(named) ? ` { ${this.selectionOf(named, depth, fragments)} }` : '';
    return `${this.alias()}${field.name}${args.length > 0 ? `(${args.join(', ')})` : ''}${body}`;
  }

  /** One to six selections of `type`, with nested objects down to `depth`. */
  private selectionOf(type: GraphQLObjectType, depth: number, fragments: string[]): string {
    const fields = Object.values(type.getFields());
    const parts: string[] = [];
    for (let i = this.rng.int(1, 6); i > 0; i--) {
      const roll = this.rng.float();
      if (roll < 0.05) {
        parts.push(`${this.rng.pick(fields).name}x`);
        continue;
      }
      if (roll < 0.1) {
        parts.push('__typename');
        continue;
      }
      if (roll < 0.16 && depth > 0) {
        const on = this.rng.chance(0.85) ? type.name : this.typeName();
        parts.push(`... on ${on} { ${this.selectionOf(type, depth - 1, fragments)} }`);
        continue;
      }
      if (roll < 0.24 && depth > 0) {
        const name = `F${fragments.length}`;
        fragments.push(`fragment ${name} on ${type.name} { ${this.selectionOf(type, depth - 1, fragments)} }`);
        for (let spread = this.rng.int(1, 3); spread > 0; spread--) parts.push(`...${name}`);
        continue;
      }
      const field = this.rng.pick(fields);
      const named = getNamedType(field.type);
      if (isObjectType(named)) {
        if (depth === 0) continue;
        parts.push(`${this.alias()}${field.name} { ${this.selectionOf(named, depth - 1, fragments)} }`);
      } else {
        parts.push(`${this.alias()}${field.name}`);
      }
    }
    return parts.length > 0 ? parts.join(' ') : '__typename';
  }

  /** Up to hundreds of aliases of one field, at the root or inside a page. */
  private aliasBomb(): GraphqlCase {
    const count = this.rng.pick([5, 19, 20, 21, 50, 300, 1200]);
    const lists = this.listFields();
    if (this.rng.chance(0.4) || lists.length === 0) {
      const roots = Array.from({ length: count }, (_, i) => `a${i}: __typename`).join(' ');
      return { kind: 'alias-bomb', query: `{ ${roots} }` };
    }
    const [root, item] = this.rng.pick(lists);
    const leaves = Object.values(item.getFields()).filter((field) => !isObjectType(getNamedType(field.type)));
    const leaf = this.rng.pick(leaves).name;
    const aliases = Array.from({ length: count }, (_, i) => `a${i}: ${leaf}`).join(' ');
    return { kind: 'alias-bomb', query: `{ ${root}(limit: ${this.rng.pick([1, 10, 100])}) { items { ${aliases} } } }` };
  }

  /** Whole-schema introspection (once or many times), a type by name, or nested type chains. */
  private introspection(): GraphqlCase {
    const roll = this.rng.float();
    if (roll < 0.25)
      return { kind: 'introspection', query: getIntrospectionQuery({ descriptions: this.rng.chance(0.5) }) };
    if (roll < 0.5) {
      const count = this.rng.pick([2, 3, 6, 20, 60]);
      const aliases = Array.from({ length: count }, (_, i) => `s${i}: __schema { types { ...FullType } }`).join(' ');
      return { kind: 'introspection', query: `{ ${aliases} } ${INTROSPECTION_FRAGMENTS}` };
    }
    if (roll < 0.75) {
      let chain = 'name';
      for (let level = this.rng.int(1, 9); level > 0; level--) chain = `name fields { name type { ${chain} } }`;
      const root = this.rng.chance(0.5) ? '__schema { types { ' : `__type(name: "${this.typeName()}") { `;
      return { kind: 'introspection', query: `{ ${root}${chain} } }${root.startsWith('__schema') ? ' }' : ''}` };
    }
    return {
      kind: 'introspection',
      query: `{ __schema { queryType { name fields { name args { name type { name kind ofType { name } } } } } directives { name args { name } locations } } }`,
    };
  }

  /** Fragments spread many times, doubling at each level, cyclic, undefined, unused or on the wrong type. */
  private fragmentGames(): GraphqlCase {
    const roll = this.rng.float();
    if (roll < 0.3) {
      const levels = this.rng.int(2, 14);
      const fragments = Array.from(
        { length: levels },
        (_, i) =>
          `fragment D${i} on __Type { ${i === 0 ? 'name' : `a: ofType { ...D${i - 1} } b: ofType { ...D${i - 1} }`} }`,
      ).join(' ');
      return { kind: 'fragments', query: `{ __type(name: "Book") { ...D${levels - 1} } } ${fragments}` };
    }
    if (roll < 0.5) {
      return {
        kind: 'fragments',
        query: '{ __typename ...A } fragment A on Query { ...B } fragment B on Query { ...A }',
      };
    }
    if (roll < 0.65) return { kind: 'fragments', query: '{ ...Missing }' };
    if (roll < 0.8) {
      return { kind: 'fragments', query: `{ __typename ...W } fragment W on ${this.typeName()} { __typename }` };
    }
    const fragments: string[] = [];
    const list = this.listFields();
    if (list.length === 0) return this.selection();
    const [root, item] = this.rng.pick(list);
    const spreads = Array.from({ length: this.rng.int(1, 40) }, () => '...P').join(' ');
    fragments.push(`fragment P on ${item.name} { ${this.selectionOf(item, 2, fragments)} }`);
    return { kind: 'fragments', query: `{ ${root} { items { ${spreads} } } } ${fragments.join(' ')}` };
  }

  /** Variables: limits with and without defaults, values of the wrong type, objects nested deep. */
  private variableGames(): GraphqlCase {
    const lists = this.listFields();
    if (lists.length === 0) return this.selection();
    const [root, item] = this.rng.pick(lists);
    const leaf = Object.values(item.getFields()).find((field) => !isObjectType(getNamedType(field.type)))!.name;
    const withDefault = this.rng.chance(0.5);
    const value = this.rng.chance(0.6) ? this.rng.pick(JUNK_INTS) : this.rng.pick(JUNK_VALUES);
    const variables: Record<string, unknown> = this.rng.chance(0.7) ? { n: value } : {};
    if (this.rng.chance(0.2)) {
      let deep: unknown = 1;
      for (let i = this.rng.int(10, 200); i > 0; i--) deep = { and: [deep] };
      variables['f'] = deep;
      return {
        kind: 'variables',
        query: `query ($f: ${item.name}Filter) { ${root}(filter: $f) { items { ${leaf} } } }`,
        variables,
      };
    }
    return {
      kind: 'variables',
      query: `query ($n: Int${withDefault ? ` = ${this.rng.pick([1, 20, 100])}` : ''}) { ${root}(limit: $n) { total items { ${leaf} } } }`,
      variables,
    };
  }

  /** A valid query cut short, a subscription, a mutation of nothing, or characters that are not GraphQL. */
  private junk(): GraphqlCase {
    const roll = this.rng.float();
    if (roll < 0.4) {
      const whole = this.selection().query;
      return { kind: 'junk', query: whole.slice(0, this.rng.int(0, whole.length - 1)) };
    }
    if (roll < 0.55) return { kind: 'junk', query: 'subscription { __typename }' };
    if (roll < 0.7) return { kind: 'junk', query: `${'{ a: __type(name: "Book") '.repeat(this.rng.int(50, 3000))}` };
    if (roll < 0.85) return { kind: 'junk', query: `{ ${'x'.repeat(this.rng.int(1, 5000))} }` };
    const alphabet = '{}()[]:$!@.#"\\ \n\tazAZ09_-,=&|';
    return {
      kind: 'junk',
      query: Array.from({ length: this.rng.int(1, 200) }, () => alphabet[this.rng.int(0, alphabet.length - 1)]).join(
        '',
      ),
    };
  }

  /** Root list fields with their item types. */
  private listFields(): [string, GraphQLObjectType][] {
    const out: [string, GraphQLObjectType][] = [];
    for (const field of Object.values(this.schema.getQueryType()!.getFields())) {
      const envelope = getNamedType(field.type);
      if (!isObjectType(envelope)) continue;
      const items = envelope.getFields()['items'];
      const item = items ? getNamedType(items.type) : undefined;
      if (item && isObjectType(item) && field.args.some((argument) => argument.name === 'limit')) {
        out.push([field.name, item]);
      }
    }
    return out;
  }

  private alias(): string {
    return this.rng.chance(0.2) ? `al${this.rng.int(0, 30)}: ` : '';
  }

  private typeName(): string {
    const names = Object.keys(this.schema.getTypeMap());
    return this.rng.chance(0.9) ? this.rng.pick(names) : this.rng.pick(['Nope', '__proto__', 'constructor', '']);
  }

  /** A literal of the argument's type (often a wrong one), or a variable of it. */
  private argumentValue(argument: GraphQLArgument, variables: Record<string, unknown>, definitions: string[]): string {
    if (this.rng.chance(0.15)) {
      const name = `v${this.variableCount++}`;
      definitions.push(`$${name}: ${String(argument.type)}`);
      if (this.rng.chance(0.8))
        variables[name] = this.rng.chance(0.7) ? this.valueFor(argument.type, 2) : this.rng.pick(JUNK_VALUES);
      return `$${name}`;
    }
    if (this.rng.chance(0.1)) return JSON.stringify(this.rng.pick(JUNK_VALUES)) ?? 'null';
    return literal(this.valueFor(argument.type, 2));
  }

  /** A value of `type` (an input type), to `depth` levels of input objects. */
  private valueFor(type: GraphQLInputType, depth: number): unknown {
    if (isNonNullType(type)) return this.valueFor(type.ofType, depth);
    if (isListType(type)) {
      return Array.from({ length: this.rng.int(0, 3) }, () => this.valueFor(type.ofType as GraphQLInputType, depth));
    }
    const named = type as GraphQLNamedType;
    if (isEnumType(named)) return new EnumLiteral(this.rng.pick(named.getValues()).name);
    if (isInputObjectType(named)) {
      if (depth === 0) return {};
      const fields = Object.values(named.getFields());
      const chosen = Array.from({ length: this.rng.int(0, 2) }, () => this.rng.pick(fields));
      return Object.fromEntries(chosen.map((field) => [field.name, this.valueFor(field.type, depth - 1)]));
    }
    if (isScalarType(named)) {
      switch (named.name) {
        case 'Int':
          return this.rng.pick(
            JUNK_INTS.filter((value) => Number.isSafeInteger(value) && Math.abs(value as number) < 2 ** 31),
          );
        case 'Float':
          return this.rng.pick([0, 1.5, -3, 1e300]);
        case 'Boolean':
          return this.rng.chance(0.5);
        case 'ID':
          return this.rng.pick(['1', '2', '999999', 'abc', '-1']);
        default:
          return this.rng.pick(['', 'Night', 'a%b_c', "it's", '2026-01-01T00:00:00Z', '\\', 'x'.repeat(300)]);
      }
    }
    return null;
  }
}

/** An enum value, printed without quotes. */
class EnumLiteral {
  constructor(readonly name: string) {}
}

/** A GraphQL literal of a JavaScript value. */
function literal(value: unknown): string {
  if (value instanceof EnumLiteral) return value.name;
  if (Array.isArray(value)) return `[${value.map(literal).join(', ')}]`;
  if (value !== null && typeof value === 'object') {
    return `{ ${Object.entries(value)
      .map(([key, inner]) => `${key}: ${literal(inner)}`)
      .join(', ')} }`;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) return '0';
  return JSON.stringify(value) ?? 'null';
}
