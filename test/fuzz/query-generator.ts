/**
 * A seeded generator of hostile list-query strings for `GET /books` (the grammar of docs/reference/query.md): bracket
 * filter trees, the JSON form, every operator and misspellings of them, injection payloads, prototype keys, limits
 * crossed, malformed numbers, dates and percent-escapes, and every other parameter of the grammar.
 */

/** A deterministic PRNG (sfc32, seeded through splitmix32): the same seed yields the same cases on every machine. */
export class Prng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    let s = seed >>> 0;
    const next = (): number => {
      s = (s + 0x9e3779b9) >>> 0;
      let z = s;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    for (let i = 0; i < 12; i++) this.float();
  }

  /** A float in [0, 1). */
  float(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t / 4294967296;
  }

  /** An integer in [min, max]. */
  int(min: number, max: number): number {
    return min + Math.floor(this.float() * (max - min + 1));
  }

  chance(p: number): boolean {
    return this.float() < p;
  }

  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.float() * items.length)]!;
  }

  /** Picks by weight: `[[weight, value], ...]`. */
  weighted<T>(entries: readonly (readonly [number, T])[]): T {
    const total = entries.reduce((sum, [weight]) => sum + weight, 0);
    let roll = this.float() * total;
    for (const [weight, value] of entries) {
      roll -= weight;
      if (roll < 0) return value;
    }
    return entries[entries.length - 1]![1];
  }
}

/** `FUZZ_SEED` as a number: digits are taken as they are, any other text is hashed. */
export function seedFrom(text: string | undefined, fallback: number): number {
  if (text === undefined || text.trim() === '') return fallback;
  if (/^\d+$/.test(text.trim())) return Number(text.trim()) >>> 0;
  let hash = 2166136261;
  for (const char of text) hash = Math.imul(hash ^ char.charCodeAt(0), 16777619) >>> 0;
  return hash;
}

type Kind = 'int' | 'float' | 'bool' | 'string' | 'datetime';

interface FieldSpec {
  readonly name: string;
  readonly kind: Kind;
}

/** The fields `/books` filters on: own columns and the three relation paths of the fuzz config. */
export const FILTER_FIELDS: readonly FieldSpec[] = [
  { name: 'id', kind: 'int' },
  { name: 'title', kind: 'string' },
  { name: 'pages', kind: 'int' },
  { name: 'rating', kind: 'float' },
  { name: 'published', kind: 'bool' },
  { name: 'isbn', kind: 'string' },
  { name: 'authorId', kind: 'int' },
  { name: 'updatedAt', kind: 'datetime' },
  { name: 'deletedAt', kind: 'datetime' },
  { name: 'author.country', kind: 'string' },
  { name: 'tags.name', kind: 'string' },
  { name: 'reviews.rating', kind: 'int' },
];

export const OWN_COLUMNS = [
  'id',
  'title',
  'pages',
  'rating',
  'published',
  'isbn',
  'authorId',
  'updatedAt',
  'deletedAt',
];

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'];

const BAD_FIELDS = [
  'titel',
  'Title',
  'TITLE',
  ' title',
  'title ',
  'author',
  'tags',
  'reviews',
  'author.name',
  'author.id',
  'author.books',
  'author.books.title',
  'reviews.body',
  'reviews.book.title',
  'tags.name.x',
  'author..country',
  '.country',
  'author.',
  '.',
  'book.title',
  'book',
  'foo',
  '',
  ' ',
  '*',
  '1',
  'or',
  'and',
  'not',
  'eq',
  'hasOwnProperty',
  'toString',
  'valueOf',
  'length',
  "title'--",
  'title"',
  'title;DROP TABLE book',
  '"title"',
  '`title`',
  'title)',
  'id,title',
  'créé',
  '标题',
  'x'.repeat(300),
  ...PROTO_KEYS,
  '__proto__.polluted',
  'author.__proto__',
  'constructor.prototype',
];

const STRING_OPS = ['like', 'ilike', 'contains', 'startsWith', 'endsWith'];
const COMPARE_OPS = ['gt', 'gte', 'lt', 'lte'];
const LIST_OPS = ['in', 'notIn', 'between'];
const NULL_OPS = ['isNull', 'isNotNull'];
export const OPERATORS = ['eq', 'ne', ...COMPARE_OPS, ...LIST_OPS, ...STRING_OPS, ...NULL_OPS];

const BAD_OPERATORS = [
  'EQ',
  'Eq',
  'equals',
  'equal',
  '=',
  '$eq',
  'neq',
  'notEq',
  'lessThan',
  'gtee',
  'ge',
  'le',
  'notin',
  'NOTIN',
  'nin',
  'IN',
  'betwen',
  'Like',
  'iLike',
  'ILIKE',
  'regex',
  'match',
  'startswith',
  'StartsWith',
  'endswith',
  'contain',
  'isnull',
  'IsNull',
  'null',
  'notNull',
  'exists',
  'eq ',
  ' eq',
  'eq;',
  "eq'--",
  '',
  'or',
  'and',
  'not',
  'title',
  '0',
  ...PROTO_KEYS,
];

const OPS_BY_KIND: Record<Kind, readonly string[]> = {
  string: OPERATORS,
  int: ['eq', 'ne', ...COMPARE_OPS, ...LIST_OPS, ...NULL_OPS],
  float: ['eq', 'ne', ...COMPARE_OPS, ...LIST_OPS, ...NULL_OPS],
  datetime: ['eq', 'ne', ...COMPARE_OPS, ...LIST_OPS, ...NULL_OPS],
  bool: ['eq', 'ne', 'in', 'notIn', ...NULL_OPS],
};

/** Injection payloads, wildcards, escapes, unicode, control characters and the like. */
export const HOSTILE_STRINGS = [
  "' OR 1=1 --",
  "' OR '1'='1",
  "' OR ''='",
  '" OR ""="',
  '"; DROP TABLE book; --',
  "'; DROP TABLE book; --",
  "'); DELETE FROM book; --",
  "' UNION SELECT name, name FROM author --",
  '1; UPDATE book SET pages = 0',
  '1 OR 1=1',
  "admin'--",
  "\\'; DROP TABLE author; --",
  '\\',
  '\\\\',
  'abc\\',
  '\\%',
  '\\_',
  '%',
  '%%',
  '_',
  '__',
  '%_%',
  '%\\',
  '[a-z]%',
  '[!a]%',
  '^.*$',
  '$1',
  '$$',
  '?',
  ':id',
  ':1',
  '@p0',
  '`',
  '/*',
  '*/',
  '--',
  ';',
  "'",
  '"',
  "''",
  'ünïcödé',
  'Ünïcödé',
  '漢字',
  'ß',
  'İ',
  'ﬁ',
  '😀',
  '👨‍👩‍👧',
  'e\u0301',
  '\u0000',
  'a\u0000b',
  '\u0000%',
  '\u202e',
  '\ufeff',
  '\u2028',
  '\r\n',
  '\t',
  '\u0007',
  ' ',
  '',
  'null',
  'NULL',
  'undefined',
  'true',
  '[]',
  '{}',
  '[object Object]',
  ',',
  ',,,',
  'a,b,c',
  ...PROTO_KEYS,
  'x'.repeat(199),
  'x'.repeat(200),
  'x'.repeat(201),
  '%'.repeat(201),
  'y'.repeat(801),
  'z'.repeat(3000),
];

const HOSTILE_NUMBERS = [
  '1e309',
  '-1e309',
  '1e300',
  '-1e300',
  '1e301',
  '-0',
  '0',
  '-0.0',
  'NaN',
  'nan',
  'Infinity',
  '-Infinity',
  '99999999999999999999',
  '-99999999999999999999',
  '999999999999999999999',
  '9223372036854775807',
  '9223372036854775808',
  '9007199254740993',
  '2147483647',
  '2147483648',
  '-2147483648',
  '-2147483649',
  '0x10',
  '0X1F',
  '0b11',
  '0o7',
  '1_000',
  '1.5',
  '.5',
  '5.',
  '1e',
  'e1',
  '1e-400',
  '4.9e-324',
  '5e-324',
  '1.7976931348623157e308',
  ' 1',
  '1 ',
  '+1',
  '--1',
  '1-',
  '١٢',
  '１２',
  '1,000',
  '1.000,5',
  '00',
  '007',
  '0.1e1',
  '1' + '0'.repeat(40),
  '0.' + '1'.repeat(60),
];

const HOSTILE_DATES = [
  '2024-01-01',
  '2024-02-29',
  '2023-02-29',
  '2024-02-30',
  '2024-13-01',
  '2024-00-10',
  '2024-01-32',
  '0000-01-01',
  '0000-00-00',
  '0001-01-01',
  '1970-01-01T00:00:00Z',
  '1969-12-31T23:59:59.999Z',
  '9999-12-31',
  '9999-12-31T23:59:59Z',
  '9999-12-31T23:59:59-14:00',
  '9999-12-31T23:59:59.999999-12:00',
  '+275760-09-13T00:00:00Z',
  '-000001-01-01T00:00:00Z',
  '10000-01-01',
  '2024-01-01T25:00',
  '2024-01-01T24:00',
  '2024-01-01T23:60',
  '2024-01-01T23:59:60',
  '2024-01-01T12:00:00+25:00',
  '2024-01-01T12:00:00+05:99',
  '2024-01-01T12:00:00.123456789Z',
  '2024-01-01 12:00',
  '2024-01-01t12:00z',
  '2024-1-1',
  '20240101',
  '2024/01/01',
  '01/02/2024',
  'yesterday',
  'now',
  'Mon, 01 Jan 2024 00:00:00 GMT',
  '1700000000',
  '1700000000000',
  '2024-01-01T12:00:00Z[Europe/Paris]',
  '2024-W01-1',
  '2024-001',
];

const GROUP_LABELS = [
  '0',
  '1',
  '2',
  '3',
  '10',
  '99999999999999999999',
  '-1',
  '1.5',
  '01',
  'a',
  'x',
  'first',
  '',
  ' ',
  'length',
  'toString',
  'or',
  'not',
  ...PROTO_KEYS,
];

const SEED_WORDS = ['Book', 'book', 'the', 'of', 'Night', 'Sea', 'Red', 'red', 'blue', 'UK', 'US', 'Ann', 'ISBN', '1'];

type Pair = readonly [string, string];

/** One generated case: the raw query string (already percent-encoded as it goes on the wire) and the route. */
export interface FuzzCase {
  readonly path: string;
  readonly query: string;
}

export interface GeneratorOptions {
  /** Wire length cap of the query string. */
  readonly maxLength: number;
}

/** Generates one query after another from a seeded PRNG. */
export class QueryGenerator {
  /** Probability that any one choice goes hostile; set per case. */
  private chaos = 0.1;
  /** Nodes a case may still generate: wide groups at several levels stay bounded. */
  private budget = 0;

  constructor(
    private readonly rng: Prng,
    private readonly options: GeneratorOptions,
  ) {}

  next(): FuzzCase {
    for (let attempt = 0; ; attempt++) {
      const candidate = this.build();
      if (candidate.query.length <= this.options.maxLength) return candidate;
      if (attempt >= 5) return { path: candidate.path, query: truncateAtPair(candidate.query, this.options.maxLength) };
    }
  }

  private build(): FuzzCase {
    const rng = this.rng;
    this.chaos = rng.weighted([
      [50, 0.03],
      [25, 0.15],
      [25, 0.5],
    ]);
    this.budget = 400;
    const path = rng.chance(0.12) ? '/plain-books' : '/books';
    const pairs: Pair[] = [];
    if (rng.chance(0.7)) pairs.push(...this.bracketFilter());
    if (rng.chance(0.18)) pairs.push(['filter', this.jsonFilter()]);
    const extras = rng.weighted([
      [30, 0],
      [35, 1],
      [20, 2],
      [10, 3],
      [5, 6],
    ]);
    for (let i = 0; i < extras; i++) pairs.push(...this.otherParam());
    if (rng.chance(0.04)) pairs.push(...this.protoParam());
    if (pairs.length > 0 && rng.chance(0.06)) {
      const repeated = rng.pick(pairs);
      pairs.splice(rng.int(0, pairs.length), 0, rng.chance(0.5) ? repeated : [repeated[0], this.anyValue()]);
    }
    if (pairs.length > 1 && rng.chance(0.2)) shuffle(rng, pairs);
    return { path, query: this.encodePairs(pairs) };
  }

  private hostile(): boolean {
    return this.rng.chance(this.chaos);
  }

  // ---- bracket form ----

  private bracketFilter(): Pair[] {
    const out: Pair[] = [];
    const roots = this.rng.weighted([
      [55, 1],
      [30, 2],
      [10, 3],
      [5, 5],
    ]);
    for (let i = 0; i < roots; i++) this.bracketNode('filter', 0, out);
    if (this.rng.chance(this.chaos * 0.3)) out.push(this.rng.pick(MALFORMED_FILTER_PAIRS));
    return out;
  }

  private bracketNode(prefix: string, depth: number, out: Pair[]): void {
    const rng = this.rng;
    const groupChance = depth === 0 ? 0.3 : depth < 3 ? 0.25 : depth < 7 ? 0.2 + this.chaos * 0.3 : 0;
    if (--this.budget > 0 && rng.chance(groupChance)) {
      const group = rng.weighted([
        [40, 'or'],
        [25, 'and'],
        [30, 'not'],
        [5, this.hostile() ? rng.pick(['OR', 'Or', 'nor', 'xor', '', '__proto__', '$or']) : 'or'],
      ]);
      if (group === 'not') {
        if (this.hostile() && rng.chance(0.15)) {
          out.push([`${prefix}[not][${rng.pick(['0', '1', ''])}]${this.fieldOpKey()}`, this.anyValue()]);
          return;
        }
        this.bracketNode(`${prefix}[not]`, depth + 1, out);
        if (this.hostile() && rng.chance(0.2)) this.bracketNode(`${prefix}[not]`, depth + 1, out);
        return;
      }
      const width =
        this.hostile() && rng.chance(0.3)
          ? rng.pick([0, 0, 12, 40, 150])
          : rng.weighted([
              [60, 2],
              [25, 3],
              [10, 1],
              [5, 5],
            ]);
      if (width === 0) {
        out.push(
          rng.pick([[`${prefix}[${group}]`, ''] as Pair, [`${prefix}[${group}][]`, 'x'], [`${prefix}[${group}]`, 'x']]),
        );
        return;
      }
      for (let i = 0; i < width; i++) {
        const label = this.hostile() ? rng.pick(GROUP_LABELS) : rng.chance(0.85) ? String(i) : `m${i}`;
        this.bracketNode(`${prefix}[${group}][${label}]`, depth + 1, out);
      }
      return;
    }
    const field = this.field();
    const op = this.operator(field);
    this.condition(prefix, field, op, out);
  }

  private field(): FieldSpec {
    if (this.hostile() && this.rng.chance(0.5)) return { name: this.rng.pick(BAD_FIELDS), kind: 'string' };
    return this.rng.pick(FILTER_FIELDS);
  }

  private operator(field: FieldSpec): string {
    const rng = this.rng;
    if (this.hostile()) return rng.chance(0.4) ? rng.pick(BAD_OPERATORS) : rng.pick(OPERATORS);
    return rng.pick(OPS_BY_KIND[field.kind]);
  }

  private fieldOpKey(): string {
    const field = this.field();
    return `[${field.name}][${this.operator(field)}]`;
  }

  private condition(prefix: string, field: FieldSpec, op: string, out: Pair[]): void {
    const rng = this.rng;
    const key = `${prefix}[${field.name}][${op}]`;
    if (this.hostile() && rng.chance(0.12)) {
      // Shapes the grammar refuses: no operator, a segment too many, the operator twice, brackets left open.
      out.push(
        rng.pick<Pair>([
          [`${prefix}[${field.name}]`, this.value(field.kind, 'eq')],
          [`${key}[x]`, this.value(field.kind, op)],
          [`${key}[0]`, this.value(field.kind, op)],
          [`${key}[]`, ''],
          [`${prefix}[${field.name}][${op}`, '1'],
          [`${prefix}[${field.name}]]${op}]`, '1'],
          [`${prefix}[${field.name}][][${op}]`, '1'],
          [`${prefix}[[${field.name}]][${op}]`, '1'],
        ]),
      );
      if (rng.chance(0.3)) out.push([key, this.value(field.kind, op)]);
      return;
    }
    if (NULL_OPS.includes(op)) {
      const flag = this.hostile()
        ? rng.pick(['', 'true', 'false', '1', '0', 'TRUE', 'yes', 'no', 'null', '2', '-1', ' true', 'x'.repeat(300)])
        : rng.pick(['', 'true', 'false', '1', '0']);
      out.push(rng.chance(0.3) && flag === '' ? [key, NO_EQUALS] : [key, flag]);
      return;
    }
    if (LIST_OPS.includes(op)) {
      const count =
        op === 'between' && !this.hostile()
          ? 2
          : this.hostile()
            ? rng.pick([0, 1, 2, 3, 99, 100, 101, 150, 400])
            : rng.int(1, 8);
      const values = Array.from({ length: count }, () => this.value(field.kind, 'eq'));
      if (op === 'between' && count === 2 && field.kind !== 'string' && rng.chance(0.7)) values.sort(compareLoose);
      if (rng.chance(0.35)) {
        const bracket = this.hostile() && rng.chance(0.2) ? rng.pick(['[0]', '[1]', '[a]', '[][]']) : '[]';
        if (count === 0) out.push([`${key}${bracket}`, '']);
        for (const value of values.slice(0, 200)) out.push([`${key}${bracket}`, value]);
      } else {
        out.push([key, values.join(rng.chance(this.chaos * 0.2) ? rng.pick([';', ', ', ',,', ' ']) : ',')]);
      }
      return;
    }
    out.push([key, this.value(field.kind, op)]);
    if (this.hostile() && rng.chance(0.05)) out.push([key, this.value(field.kind, op)]);
  }

  private value(kind: Kind, op: string): string {
    const rng = this.rng;
    if (this.hostile()) {
      return rng.weighted([
        [35, () => rng.pick(HOSTILE_STRINGS)],
        [25, () => rng.pick(HOSTILE_NUMBERS)],
        [15, () => rng.pick(HOSTILE_DATES)],
        [10, () => this.validValue(kind, op)],
        [10, () => rng.pick(['true', 'false', '1', '0', 'TRUE', 'on', 'yes'])],
        [5, () => `${rng.pick(SEED_WORDS)}${rng.pick(HOSTILE_STRINGS)}${rng.pick(SEED_WORDS)}`],
      ])();
    }
    return this.validValue(kind, op);
  }

  private validValue(kind: Kind, op: string): string {
    const rng = this.rng;
    switch (kind) {
      case 'int':
        return String(rng.chance(0.8) ? rng.int(0, 420) : rng.int(-5, 5));
      case 'float':
        return (rng.int(0, 50) / 10).toString();
      case 'bool':
        return rng.pick(['true', 'false', '1', '0']);
      case 'datetime':
        return rng.pick(['2000-01-01', '2020-06-15T12:00:00Z', '2099-12-31T23:59:59.999Z', '2024-02-29 08:30']);
      case 'string': {
        const word = rng.pick(SEED_WORDS);
        if (op === 'like' || op === 'ilike') {
          return rng.pick([`%${word}%`, `${word}%`, `%${word}`, `_${word.slice(1)}%`, word, '%']);
        }
        return rng.chance(0.2) ? rng.pick(HOSTILE_STRINGS.slice(0, 40)) : word;
      }
    }
  }

  private anyValue(): string {
    return this.value(this.rng.pick(FILTER_FIELDS).kind, 'eq');
  }

  // ---- JSON form ----

  private jsonFilter(): string {
    const rng = this.rng;
    const shape = this.hostile()
      ? rng.weighted([
          [30, 'valid'],
          [15, 'truncated'],
          [10, 'deep'],
          [10, 'huge'],
          [15, 'malformed'],
          [20, 'proto'],
        ])
      : 'valid';
    switch (shape) {
      case 'truncated': {
        const text = jsonText(this.jsonNode(0));
        return text.slice(0, rng.int(0, Math.max(0, text.length - 1)));
      }
      case 'deep': {
        const levels = rng.pick([3, 4, 5, 50, 500, 1200]);
        const group = rng.pick(['not', 'and', 'or']);
        const open = group === 'not' ? '{"not":' : `{"${group}":[`;
        const close = group === 'not' ? '}' : ']}';
        return `${open.repeat(levels)}{"pages":{"gte":1}}${close.repeat(levels)}`;
      }
      case 'huge': {
        const members = rng.int(50, 300);
        const kind = rng.pick(['or', 'in', 'fields']);
        if (kind === 'in') {
          return `{"id":{"${rng.pick(['in', 'notIn', 'between'])}":[${Array.from({ length: members * 3 }, (_, i) => i).join(',')}]}}`;
        }
        if (kind === 'fields') {
          return `{${Array.from({ length: members }, (_, i) => `"f${i}":{"eq":${i}}`).join(',')}}`;
        }
        return `{"or":[${Array.from({ length: members }, (_, i) => `{"pages":{"eq":${i}}}`).join(',')}]}`;
      }
      case 'malformed':
        return rng.pick(MALFORMED_JSON);
      case 'proto':
        return rng.pick(PROTO_JSON);
      default:
        return jsonText(this.jsonNode(0));
    }
  }

  private jsonNode(depth: number): JsonValue {
    const rng = this.rng;
    const node: [string, JsonValue][] = [];
    const keys = rng.weighted([
      [60, 1],
      [30, 2],
      [10, 3],
    ]);
    for (let i = 0; i < keys; i++) {
      const groupChance = depth < 3 ? 0.3 : depth < 6 ? 0.15 + this.chaos * 0.3 : 0;
      if (--this.budget > 0 && rng.chance(groupChance)) {
        const group = rng.pick(['or', 'and', 'not']);
        if (group === 'not') {
          node.push(['not', this.hostile() ? this.jsonAny(depth + 1) : this.jsonNode(depth + 1)]);
        } else {
          const width = this.hostile() ? rng.pick([0, 1, 2, 40]) : rng.int(1, 3);
          const members = Array.from({ length: width }, () => this.jsonNode(depth + 1));
          node.push([group, rng.chance(0.2) ? obj(members.map((member, index) => [String(index), member])) : members]);
        }
        continue;
      }
      const field = this.field();
      const op = this.operator(field);
      node.push([field.name, obj([[op, this.jsonValue(field, op, depth)]])]);
    }
    return obj(node);
  }

  private jsonValue(field: FieldSpec, op: string, depth: number): JsonValue {
    const rng = this.rng;
    if (this.hostile()) return this.jsonAny(depth + 1);
    if (LIST_OPS.includes(op)) {
      const count = op === 'between' ? 2 : rng.int(0, 5);
      const values = Array.from({ length: count }, () => this.typedValid(field.kind, op));
      return values;
    }
    if (NULL_OPS.includes(op)) return rng.pick<JsonValue>([true, false, '', 'true', raw('1'), raw('0')]);
    return this.typedValid(field.kind, op);
  }

  private typedValid(kind: Kind, op: string): JsonValue {
    const text = this.validValue(kind, op);
    if (this.rng.chance(0.5)) return text;
    if (kind === 'int' || kind === 'float') return raw(text);
    if (kind === 'bool') return text === 'true' || text === '1';
    return text;
  }

  private jsonAny(depth: number): JsonValue {
    const rng = this.rng;
    return rng.weighted<() => JsonValue>([
      [25, () => rng.pick(HOSTILE_STRINGS)],
      [20, () => raw(rng.pick(JSON_NUMBERS))],
      [10, () => rng.pick(HOSTILE_DATES)],
      [10, () => rng.pick<JsonValue>([true, false, null])],
      [10, () => this.jsonArray(depth)],
      [10, () => (depth > 4 ? {} : this.jsonNode(depth + 1))],
      [5, () => obj([[rng.pick(PROTO_KEYS), obj([['polluted', 'yes']])]])],
      [10, () => this.validValue(rng.pick(FILTER_FIELDS).kind, 'eq')],
    ])();
  }

  /** An array of anything: long arrays hold scalars only, so the size stays bounded. */
  private jsonArray(depth: number): JsonValue {
    const rng = this.rng;
    const length = rng.pick([0, 1, 2, 3, 101]);
    if (length > 3 || depth > 4) {
      return Array.from({ length }, () => rng.pick<JsonValue>([raw(String(rng.int(0, 400))), 'Book', true, null]));
    }
    return Array.from({ length }, () => this.jsonAny(depth + 1));
  }

  // ---- every other parameter ----

  private otherParam(): Pair[] {
    const rng = this.rng;
    return rng.weighted<() => Pair[]>([
      [16, () => [['sort', this.sortValue()]]],
      [14, () => this.pagination()],
      [10, () => this.selectParam()],
      [12, () => this.includeParam()],
      [12, () => this.searchParam()],
      [10, () => this.softDeleteParam()],
      [5, () => [rng.pick(OTHER_PAGINATION)]],
      [6, () => [rng.pick(UNKNOWN_PARAMS)]],
      [5, () => [rng.pick(EMPTY_KEY_PAIRS)]],
    ])();
  }

  private sortValue(): string {
    const rng = this.rng;
    if (this.hostile() && rng.chance(0.3)) {
      return rng.pick([
        '',
        ',',
        'title,',
        ',title',
        '-',
        '--title',
        '+title',
        '- title',
        'title,title',
        'title,-title',
        'author.name',
        'author',
        'tags.name',
        'title desc',
        'title;DROP TABLE book',
        "title'",
        'RANDOM()',
        '1',
        '__proto__',
        'constructor',
        '-' + 'x'.repeat(500),
        Array.from({ length: 60 }, (_, i) => `f${i}`).join(','),
      ]);
    }
    const count = rng.int(1, 3);
    const keys = new Set<string>();
    for (let i = 0; i < count; i++) {
      const field = this.hostile() ? rng.pick(BAD_FIELDS) : rng.pick(OWN_COLUMNS);
      keys.add(`${rng.chance(0.4) ? '-' : ''}${field}`);
    }
    return [...keys].join(rng.chance(0.1) ? ' , ' : ',');
  }

  private pagination(): Pair[] {
    const rng = this.rng;
    const number = (): string =>
      this.hostile()
        ? rng.pick([...HOSTILE_NUMBERS, '', 'abc', '-1', '2147483647', '2147483648', '10abc', 'null', '1e2'])
        : String(rng.pick([0, 1, 5, 10, 20, 50, 100, 101, 150, 199, 200, 250]));
    const out: Pair[] = [];
    if (rng.chance(0.7)) out.push(['limit', number()]);
    if (rng.chance(0.6)) out.push(['offset', number()]);
    return out;
  }

  private selectParam(): Pair[] {
    const rng = this.rng;
    const out: Pair[] = [];
    if (rng.chance(0.75)) {
      const fields = new Set<string>();
      const count = rng.int(1, 4);
      for (let i = 0; i < count; i++) fields.add(this.hostile() ? rng.pick(BAD_FIELDS) : rng.pick(OWN_COLUMNS));
      out.push(['select', [...fields].join(',')]);
    }
    if (rng.chance(0.4)) {
      const relation = this.hostile()
        ? rng.pick(['author', 'tags', 'reviews', 'book', 'author.books', 'x', '', ...PROTO_KEYS])
        : rng.pick(['author', 'tags', 'reviews']);
      const fields = this.hostile()
        ? rng.pick(['name', 'country', 'rating,body', 'id', 'x', '', ',', 'name,name', '__proto__'])
        : rng.pick(
            relation === 'author'
              ? ['name', 'country', 'name,country']
              : relation === 'tags'
                ? ['name']
                : ['rating', 'rating,body'],
          );
      out.push([`select[${relation}]`, fields]);
      if (rng.chance(0.5)) out.push(['include', relation]);
    }
    return out;
  }

  private includeParam(): Pair[] {
    const rng = this.rng;
    const value = this.hostile()
      ? rng.pick([
          'author.books',
          'tags.books',
          'reviews.book',
          'reviews.book.author',
          'reviews.book.author.books.tags',
          'author,author',
          'author,',
          ',',
          '',
          'foo',
          'Author',
          'author.country',
          'title',
          '*',
          'author.*',
          ...PROTO_KEYS,
          'author.__proto__',
          Array.from({ length: 50 }, () => 'author').join('.'),
        ])
      : [...new Set(Array.from({ length: rng.int(1, 3) }, () => rng.pick(['author', 'tags', 'reviews'])))].join(',');
    return [['include', value]];
  }

  private searchParam(): Pair[] {
    const rng = this.rng;
    if (this.hostile() && rng.chance(0.25)) {
      return [
        rng.pick<Pair>([
          ['search', 'x'],
          ['search[foo]', 'x'],
          ['search[query][x]', 'x'],
          ['search[]', 'x'],
          ['search[QUERY]', 'x'],
        ]),
      ];
    }
    const term = this.hostile()
      ? rng.pick(HOSTILE_STRINGS)
      : rng.pick([...SEED_WORDS, 'book 1', '  night  ', '', '%', '_']);
    return [['search[query]', term]];
  }

  private softDeleteParam(): Pair[] {
    const rng = this.rng;
    const flag = (): string =>
      this.hostile()
        ? rng.pick(['true', 'false', '1', '0', '', 'TRUE', 'yes', 'null', 'true,true'])
        : rng.pick(['true', 'false']);
    return rng.weighted<() => Pair[]>([
      [45, () => [['withDeleted', flag()]]],
      [45, () => [['onlyDeleted', flag()]]],
      [
        10,
        () => [
          ['withDeleted', flag()],
          ['onlyDeleted', flag()],
        ],
      ],
    ])();
  }

  private protoParam(): Pair[] {
    return [this.rng.pick(PROTO_PAIRS)];
  }

  // ---- the wire ----

  private encodePairs(pairs: readonly Pair[]): string {
    const rng = this.rng;
    const parts: string[] = [];
    let length = 0;
    for (const [key, value] of pairs) {
      // Past the cap the case is generated again: no need to encode the rest.
      if (length > this.options.maxLength) break;
      let part = value === NO_EQUALS ? this.encode(key) : `${this.encode(key)}=${this.encode(value)}`;
      if (this.hostile() && rng.chance(0.05)) {
        const broken = rng.pick(MALFORMED_ESCAPES);
        part = rng.chance(0.5) ? `${part}${broken}` : `${broken}${part}`;
      }
      parts.push(part);
      length += part.length + 1;
    }
    let query = parts.join('&');
    if (this.hostile() && rng.chance(0.1))
      query = rng.pick(['&', '&&', '=&']) + query + rng.pick(['', '&', '&&', '&=']);
    return query;
  }

  /** Percent-encodes as a client would, leaving brackets and commas raw most of the time. */
  private encode(text: string): string {
    const rawBrackets = this.rng.chance(0.85);
    const plusForSpace = this.rng.chance(0.5);
    if (/^[A-Za-z0-9\-_.~]*$/.test(text)) return text;
    const parts: string[] = [];
    for (const byte of Buffer.from(text, 'utf8')) {
      if (rawBrackets && (byte === 0x5b || byte === 0x5d || byte === 0x2c)) parts.push(String.fromCharCode(byte));
      else if (byte === 0x20 && plusForSpace) parts.push('+');
      else parts.push(ENCODED[byte]!);
    }
    return parts.join('');
  }
}

/** Each byte as a URL-safe character or its percent-escape. */
const ENCODED = Array.from({ length: 256 }, (_, byte) => {
  const char = String.fromCharCode(byte);
  return /[A-Za-z0-9\-_.~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
});

/** A pair sent as its key alone, with no `=`. */
const NO_EQUALS = '\u0000<no equals>';

const MALFORMED_ESCAPES = ['%', '%%', '%zz', '%4', '%E0%A4', '%ED%A0%80', '%C0%80', '%FF', '%FE%FF', '%00', '%u0041'];

const MALFORMED_FILTER_PAIRS: readonly Pair[] = [
  ['filter[]', ''],
  ['filter[]', 'x'],
  ['filter[', '1'],
  ['filter]', '1'],
  ['filter[title', 'x'],
  ['filter[title][eq', 'x'],
  ['filter[[title]][eq]', 'x'],
  ['filter[title][eq]]', 'x'],
  ['filter[title]x[eq]', 'x'],
  ['filter[][][]', ''],
  ['filter[or]', 'x'],
  ['filter[not]', ''],
  ['filter[title][eq][]', ''],
  ['filter[title][in][][]', '1'],
  ['filter.title.eq', 'x'],
  ['filter[title]', ''],
  ['filter[title][eq]', NO_EQUALS],
  ['filter[pages][between]', '1'],
  ['filter[pages][between]', '1,2,3'],
  ['filter[pages][between]', ','],
];

const MALFORMED_JSON = [
  '{',
  '}',
  '{"',
  '{"title":',
  '{"title":{"eq":}}',
  "{'title':{'eq':'x'}}",
  '{"title":{"eq":"x"},}',
  '{title:{eq:1}}',
  '[]',
  '[{"title":{"eq":"x"}}]',
  '1',
  '-0',
  '"x"',
  'null',
  'true',
  '',
  ' ',
  'NaN',
  '{}',
  '{"or":[]}',
  '{"and":{}}',
  '{"not":{}}',
  '{"not":[]}',
  '{"not":null}',
  '{"or":null}',
  '{"title":null}',
  '{"title":{}}',
  '{"title":{"eq":null}}',
  '{"title":"x"}',
  '{"title":{"eq":{"eq":"x"}}}',
  '{"title":{"eq":["a","b"]}}',
  '{"pages":{"in":"1,2"}}',
  '{"pages":{"between":[1]}}',
  '{"pages":{"between":[3,2,1]}}',
  '{"pages":{"eq":1e309}}',
  '{"pages":{"eq":-1e309}}',
  '{"rating":{"gt":1e309}}',
  '{"pages":{"eq":99999999999999999999}}',
  '{"pages":{"eq":-0}}',
  '{"rating":{"eq":-0}}',
  '{"pages":{"eq":0.1e1}}',
  '{"published":{"eq":"yes"}}',
  '{"published":{"eq":2}}',
  '{"updatedAt":{"gt":1700000000000}}',
  '{"updatedAt":{"gt":true}}',
  '{"title":{"eq":"\\u0000"}}',
  '{"title":{"eq":"\\ud800"}}',
  '{"title":{"like":"abc\\\\"}}',
  '{"title":{"eq":"a"},"title":{"eq":"b"}}',
  '{"title":{"eq":"a","eq":"b"}}',
  '{"title":{"eq":"a"}} {"pages":{"eq":1}}',
  '\ufeff{"title":{"eq":"a"}}',
  '{"title":{"eq":"a"}}\u0000',
];

const PROTO_JSON = [
  '{"__proto__":{"polluted":"yes"}}',
  '{"__proto__":{"eq":"x"}}',
  '{"title":{"__proto__":{"polluted":"yes"}}}',
  '{"title":{"eq":"x","__proto__":{"polluted":"yes"}}}',
  '{"constructor":{"prototype":{"polluted":"yes"}}}',
  '{"prototype":{"eq":1}}',
  '{"or":[{"__proto__":{"polluted":"yes"}}]}',
  '{"or":{"__proto__":{"title":{"eq":"x"}}}}',
  '{"not":{"__proto__":{"polluted":"yes"}}}',
  '{"and":[{"constructor":{"prototype":{"polluted":"yes"}}}]}',
  '{"title":{"in":{"__proto__":["x"]}}}',
  '{"title":{"eq":{"__proto__":{"polluted":"yes"}}}}',
  '{"title":{"constructor":"x"}}',
  '{"toString":{"eq":"x"}}',
  '{"hasOwnProperty":{"eq":"x"}}',
];

const PROTO_PAIRS: readonly Pair[] = [
  ['__proto__[polluted]', 'yes'],
  ['__proto__', 'yes'],
  ['constructor[prototype][polluted]', 'yes'],
  ['prototype[polluted]', 'yes'],
  ['filter[__proto__][polluted]', 'yes'],
  ['filter[__proto__][polluted][eq]', 'yes'],
  ['filter[constructor][prototype][polluted]', 'yes'],
  ['filter[constructor][prototype][eq]', 'yes'],
  ['filter[title][__proto__]', 'yes'],
  ['filter[title][__proto__][polluted]', 'yes'],
  ['filter[title][constructor]', 'yes'],
  ['filter[or][__proto__][title][eq]', 'yes'],
  ['filter[or][0][__proto__][polluted]', 'yes'],
  ['filter[not][__proto__][eq]', 'yes'],
  ['filter[title][in][__proto__]', 'yes'],
  ['select[__proto__]', 'polluted'],
  ['select[constructor]', 'prototype'],
  ['search[__proto__]', 'yes'],
  ['page[__proto__]', 'yes'],
  ['include', '__proto__'],
  ['sort', '__proto__'],
  ['select', '__proto__,constructor'],
];

const OTHER_PAGINATION: readonly Pair[] = [
  ['page[number]', '1'],
  ['page[size]', '10'],
  ['page[number]', '-1'],
  ['page', '2'],
  ['cursor', 'abc'],
  ['cursor', ''],
  ['cursor', 'eyJpZCI6MX0'],
  ['since', '2024-01-01'],
  ['since', 'x'],
  ['skip', '5'],
  ['take', '5'],
  ['per_page', '5'],
];

const UNKNOWN_PARAMS: readonly Pair[] = [
  ['q', 'x'],
  ['filters[title][eq]', 'x'],
  ['Filter[title][eq]', 'x'],
  ['FILTER', '{}'],
  ['LIMIT', '5'],
  ['Sort', 'title'],
  ['where', '1=1'],
  ['order', 'title'],
  ['fields', 'title'],
  ['expand', 'author'],
  ['populate', 'author'],
  ['callback', 'alert(1)'],
  ['_', '1700000000'],
  ['toString', 'x'],
  ['hasOwnProperty', 'x'],
  ['valueOf', 'x'],
  ['x'.repeat(1000), 'y'],
  ['withdeleted', 'true'],
  ['deleted', 'true'],
  ['limit[]', '5'],
  ['limit[max]', '5'],
  ['sort[]', 'title'],
  ['sort[title]', 'asc'],
  ['offset[0]', '1'],
  ['include[]', 'author'],
  ['include[author]', 'true'],
  ['withDeleted[]', 'true'],
  ['select[]', 'title'],
];

const EMPTY_KEY_PAIRS: readonly Pair[] = [
  ['', 'x'],
  ['', ''],
  ['', NO_EQUALS],
  [' ', 'x'],
  ['[]', 'x'],
  ['[filter]', 'x'],
  ['[', 'x'],
  [']', 'x'],
  ['=', '='],
  ['filter', ''],
  ['sort', ''],
  ['select', ''],
  ['include', ''],
  ['limit', ''],
  ['offset', NO_EQUALS],
  ['search[query]', NO_EQUALS],
  ['withDeleted', NO_EQUALS],
];

const JSON_NUMBERS = [
  '0',
  '-0',
  '1',
  '-1',
  '1.5',
  '1e309',
  '-1e309',
  '1e300',
  '1e-400',
  '99999999999999999999',
  '2147483648',
  '-2147483649',
  '9007199254740993',
  '0.1',
  '1E2',
  '4.9e-324',
];

// ---- JSON text with raw number literals (1e309, -0, 99999999999999999999 as written) ----

class RawNumber {
  constructor(readonly text: string) {}
}

class JsonObject {
  constructor(readonly entries: readonly (readonly [string, JsonValue])[]) {}
}

type JsonValue = string | boolean | null | RawNumber | JsonObject | readonly JsonValue[] | Record<string, never>;

const raw = (text: string): RawNumber => new RawNumber(text);
const obj = (entries: readonly (readonly [string, JsonValue])[]): JsonObject => new JsonObject(entries);

function jsonText(value: JsonValue): string {
  if (value instanceof RawNumber) return value.text;
  if (value instanceof JsonObject) {
    return `{${value.entries.map(([key, member]) => `${JSON.stringify(key)}:${jsonText(member)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map((member: JsonValue) => jsonText(member)).join(',')}]`;
  if (value !== null && typeof value === 'object') return '{}';
  return JSON.stringify(value);
}

function compareLoose(a: string, b: string): number {
  const x = Number(a);
  const y = Number(b);
  if (Number.isFinite(x) && Number.isFinite(y)) return x - y;
  return a < b ? -1 : a > b ? 1 : 0;
}

function shuffle<T>(rng: Prng, items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = rng.int(0, i);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

function truncateAtPair(query: string, maxLength: number): string {
  const cut = query.lastIndexOf('&', maxLength);
  return cut > 0 ? query.slice(0, cut) : query.slice(0, maxLength);
}
