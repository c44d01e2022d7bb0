/** The names the schema gives entities and fields: GraphQL-safe identifiers and English plurals for list fields. */

const IDENTIFIER = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** True when `name` is a valid GraphQL name that does not use the reserved `__` prefix. */
export function isGraphqlName(name: string): boolean {
  return IDENTIFIER.test(name) && !name.startsWith('__');
}

/**
 * A column's GraphQL name: its own, or for a column of an embedded class, named by its path, the path with `_` for
 * each dot (`price_amount` for `price.amount`), since GraphQL names take no dot.
 */
export function graphqlFieldName(field: string): string {
  return field.split('.').join('_');
}

/** `book` from `Book`, `isbnCode` from `IsbnCode`: the first letter lowered. */
export function lowerFirst(word: string): string {
  return word.charAt(0).toLowerCase() + word.slice(1);
}

/** `Book` from `book`, `AuthorCountry` from `author.country` or `author_country`. */
export function pascal(path: string): string {
  return path
    .split(/[._]/)
    .filter((part) => part.length > 0)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** Words whose plural is not made by a rule (checked on the lowered last word). */
const IRREGULAR: Readonly<Record<string, string>> = {
  person: 'people',
  man: 'men',
  woman: 'women',
  child: 'children',
  mouse: 'mice',
  goose: 'geese',
  tooth: 'teeth',
  foot: 'feet',
  ox: 'oxen',
  criterion: 'criteria',
  datum: 'data',
  index: 'indices',
  matrix: 'matrices',
  vertex: 'vertices',
  analysis: 'analyses',
  crisis: 'crises',
  thesis: 'theses',
  cactus: 'cacti',
  leaf: 'leaves',
  life: 'lives',
  knife: 'knives',
  wife: 'wives',
  half: 'halves',
  shelf: 'shelves',
  wolf: 'wolves',
  hero: 'heroes',
  potato: 'potatoes',
  tomato: 'tomatoes',
  echo: 'echoes',
};

/** Words spelled the same in the plural. */
const UNCHANGED = new Set([
  'sheep',
  'fish',
  'deer',
  'series',
  'species',
  'news',
  'equipment',
  'information',
  'metadata',
  'media',
  'moose',
  'aircraft',
  'software',
  'feedback',
]);

/**
 * The English plural of an entity name in camel or Pascal case, pluralizing its last word: `categories`, `people`,
 * `addresses`, `boxes`, `OrderItems`. The case of the first letter is kept.
 */
export function pluralize(name: string): string {
  const match = /^(.*?)([A-Z]?[a-z0-9]*)$/.exec(name);
  const head = match?.[1] ?? '';
  const last = match?.[2] ?? name;
  if (last.length === 0) return `${name}s`;
  const lower = last.toLowerCase();
  const capital = last.charAt(0) !== lower.charAt(0);
  const keepCase = (plural: string) => (capital ? plural.charAt(0).toUpperCase() + plural.slice(1) : plural);
  if (UNCHANGED.has(lower)) return name;
  const irregular = IRREGULAR[lower];
  if (irregular) return head + keepCase(irregular);
  return head + last.slice(0, last.length - suffixCut(lower)) + suffixOf(lower);
}

function suffixCut(word: string): number {
  return /[^aeiou]y$/.test(word) ? 1 : 0;
}

function suffixOf(word: string): string {
  if (/[^aeiou]y$/.test(word)) return 'ies';
  if (/(s|x|z|ch|sh)$/.test(word)) return 'es';
  return 's';
}
