/**
 * One walk over a JSON Schema's `$ref`s, for the surfaces that move or write out the named schemas an operation refers
 * to. It reads a schema as a schema: the values of data keywords (`const`, `enum`, `default`, ...) are data, and the
 * keys of name maps (`properties`, `$defs`, ...) are names, never keywords.
 */

const DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'enum', 'default', 'examples', 'example']);
const NAME_MAPS: ReadonlySet<string> = new Set(['properties', 'patternProperties', '$defs', 'dependentSchemas']);

/**
 * `schema` with each object that holds a `$ref` replaced by what `replace` answers for it: its pointer, and the object
 * with its other keywords already walked.
 */
export function mapSchemaRefs(
  schema: unknown,
  replace: (pointer: string, ref: Readonly<Record<string, unknown>>) => unknown,
): unknown {
  const walk = (value: unknown, names: boolean): unknown => {
    if (Array.isArray(value)) return value.map((item) => walk(item, false));
    if (value === null || typeof value !== 'object') return value;
    const walked = Object.fromEntries(
      Object.entries(value).map(([key, child]) => {
        if (names) return [key, walk(child, false)];
        if (key === '$ref' || DATA_KEYWORDS.has(key)) return [key, child];
        return [key, walk(child, NAME_MAPS.has(key))];
      }),
    );
    const pointer = names ? undefined : walked['$ref'];
    return typeof pointer === 'string' ? replace(pointer, walked) : walked;
  };
  return walk(schema, false);
}
