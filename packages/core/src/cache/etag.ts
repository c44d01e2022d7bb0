/** Strong ETags: a hash of the canonical JSON of a single-item representation. Pure JS: core has no Node imports. */
import { isoText } from '../schema/date-values';

/**
 * JSON with object keys sorted at every level, so equal representations hash equally. Iterative, with its own stack:
 * a deeply nested JSON column (written by another program, say) cannot overflow the call stack of a read.
 */
export function canonicalJson(value: unknown): string {
  const out: string[] = [];
  // Pending work, last first: values still to write, and literal text (brackets, commas, keys) between them.
  const values: unknown[] = [value];
  const texts: (string | undefined)[] = [undefined];
  while (values.length > 0) {
    const text = texts.pop();
    let next = values.pop();
    if (text !== undefined) {
      out.push(text);
      continue;
    }
    if (next instanceof Date) next = isoText(next);
    if (next === null || typeof next !== 'object') {
      out.push(JSON.stringify(next) ?? 'null');
    } else if (Array.isArray(next)) {
      out.push('[');
      values.push(undefined);
      texts.push(']');
      for (let i = next.length - 1; i >= 0; i--) {
        values.push(next[i]);
        texts.push(undefined);
        if (i > 0) {
          values.push(undefined);
          texts.push(',');
        }
      }
    } else {
      const record = next as Record<string, unknown>;
      const keys = Object.keys(record)
        .filter((key) => record[key] !== undefined)
        .sort();
      out.push('{');
      values.push(undefined);
      texts.push('}');
      for (let i = keys.length - 1; i >= 0; i--) {
        values.push(record[keys[i]!]);
        texts.push(undefined);
        values.push(undefined);
        texts.push(`${i > 0 ? ',' : ''}${JSON.stringify(keys[i])}:`);
      }
    }
  }
  return out.join('');
}

/** `"<hash>"` of the representation (two independent 53-bit hashes, 106 bits in all). */
export function computeEtag(representation: unknown): string {
  const text = canonicalJson(representation);
  const half = (seed: number) => hash53(text, seed).toString(36).padStart(11, '0');
  return `"${half(0x9e3779b9)}${half(0x85ebca6b)}"`;
}

/**
 * The ETag of a served item: the state tag (of the canonical representation), plus a suffix hashing the served body
 * when `select`, an output slot or includes shape it differently, so caches tell the shapes apart while If-Match
 * still compares the state.
 */
export function computeShapedEtag(state: unknown, served: unknown): string {
  const stateTag = computeEtag(state);
  const stateJson = canonicalJson(state);
  const servedJson = canonicalJson(served);
  if (stateJson === servedJson) return stateTag;
  return `${stateTag.slice(0, -1)}.${computeEtag(servedJson).slice(1)}`;
}

/** The state part of a tag (`"abc.def"` → `"abc"`), which If-Match compares. */
export function stateTagOf(tag: string): string {
  const dot = tag.indexOf('.');
  return dot === -1 ? tag : `${tag.slice(0, dot)}"`;
}

/** Weak comparison (If-None-Match): `*` matches; W/ prefixes are ignored. */
export function etagMatchesWeak(header: string, etag: string): boolean {
  return splitTags(header).some((tag) => tag === '*' || stripWeak(tag) === stripWeak(etag));
}

/** Strong comparison (If-Match): `*` matches any current representation; weak tags never match. */
export function etagMatchesStrong(header: string, etag: string): boolean {
  return splitTags(header).some((tag) => tag === '*' || (!tag.startsWith('W/') && stateTagOf(tag) === etag));
}

function splitTags(header: string): string[] {
  return header
    .split(',')
    .map((tag) => tag.trim())
    .filter((tag) => tag.length > 0);
}

function stripWeak(tag: string): string {
  return tag.startsWith('W/') ? tag.slice(2) : tag;
}

/** cyrb53: a fast, well-mixed 53-bit string hash. */
function hash53(text: string, seed: number): number {
  let h1 = 0xdeadbeef ^ seed;
  let h2 = 0x41c6ce57 ^ seed;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ ch, 2654435761);
    h2 = Math.imul(h2 ^ ch, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return 4294967296 * (2097151 & h2) + (h1 >>> 0);
}
