/** Splits a raw query string into ordered key/value pairs, never into a nested object (no prototype pollution). */

export type QueryPairs = readonly (readonly [string, string])[];

/** Parses `a=1&b[c]=2` into pairs; `+` is a space, malformed percent-escapes are kept literally. */
export function parseQueryString(search: string): QueryPairs {
  const text = search.startsWith('?') ? search.slice(1) : search;
  if (text.length === 0) return [];
  const pairs: [string, string][] = [];
  for (const part of text.split('&')) {
    if (part.length === 0) continue;
    const eq = part.indexOf('=');
    const rawKey = eq === -1 ? part : part.slice(0, eq);
    const rawValue = eq === -1 ? '' : part.slice(eq + 1);
    pairs.push([decode(rawKey), decode(rawValue)]);
  }
  return pairs;
}

function decode(text: string): string {
  const spaced = text.replace(/\+/g, ' ');
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

/** Splits `filter[a][b][]` into `['filter', 'a', 'b', '']`; undefined when the brackets are malformed. */
export function splitBracketKey(key: string): string[] | undefined {
  const open = key.indexOf('[');
  if (open === -1) return [key];
  const segments = [key.slice(0, open)];
  let rest = key.slice(open);
  while (rest.length > 0) {
    const match = /^\[([^[\]]*)\]/.exec(rest);
    if (!match) return undefined;
    segments.push(match[1]!);
    rest = rest.slice(match[0].length);
  }
  return segments;
}
