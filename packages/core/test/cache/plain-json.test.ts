import { isPlainJson, toPlainJson } from '../../src/cache/plain-json';

describe('isPlainJson', () => {
  it('accepts what JSON carries unchanged', () => {
    expect(isPlainJson({ a: [1, 'x', true, null, { b: -1.5 }], c: {} })).toBe(true);
    expect(isPlainJson(Object.assign(Object.create(null), { a: 1 }))).toBe(true);
  });

  it.each([
    ['a Date', new Date(0)],
    ['an undefined member', { a: undefined }],
    ['an array hole', new Array<number>(2)],
    ['NaN', [Number.NaN]],
    ['-0', { n: -0 }],
    ['a bigint', 1n],
    ['a class instance', new (class Box {})()],
    ['bytes', Uint8Array.from([1])],
  ])('refuses %s', (_, value) => {
    expect(isPlainJson(value)).toBe(false);
  });

  it('walks a deeply nested value without overflowing the stack, and ends on a cycle', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(isPlainJson(deep)).toBe(false);
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(isPlainJson(cyclic)).toBe(false);
  });
});

describe('toPlainJson', () => {
  it('returns a plain value itself, copying nothing', () => {
    const body = { items: [{ id: 1 }] };
    expect(toPlainJson(body)).toBe(body);
  });

  it('gives anything else as JSON carries it', () => {
    expect(toPlainJson({ at: new Date(0), gone: undefined, list: [undefined], file: Buffer.from('a') })).toStrictEqual({
      at: '1970-01-01T00:00:00.000Z',
      list: [null],
      file: { type: 'Buffer', data: [97] },
    });
  });

  it('throws where JSON.stringify does', () => {
    expect(() => toPlainJson({ n: 1n })).toThrow(TypeError);
  });
});
