import { ConfigurationException, createSvc } from '../../src';
import { tooDeepUnder } from '../../src/schema/input-depth';

describe('inputLimits', () => {
  it('takes maxDepth from 1 to 1000 at createSvc', () => {
    expect(() => createSvc({ inputLimits: { maxDepth: 5 } })).not.toThrow();
    for (const maxDepth of [0, 1001, 2.5]) {
      expect(() => createSvc({ inputLimits: { maxDepth } })).toThrow(
        /inputLimits\.maxDepth: must be an integer from 1 to 1000/,
      );
    }
    expect(() => createSvc({ inputLimits: { depth: 3 } as never })).toThrow(ConfigurationException);
  });
});

describe('tooDeepUnder', () => {
  const nested = (levels: number) => {
    let value: unknown = 1;
    for (let i = 0; i < levels; i++) value = { a: value };
    return value;
  };

  it('names the top-level field under which a value nests past the limit, the value itself counting as one', () => {
    expect(tooDeepUnder({ ok: 1, deep: nested(3) }, 4)).toBeUndefined();
    expect(tooDeepUnder({ ok: 1, deep: nested(4) }, 4)).toBe('deep');
    expect(tooDeepUnder([1, [[[2]]]], 3)).toBe('/1');
  });

  it('walks a value far deeper than the call stack without overflowing', () => {
    expect(tooDeepUnder({ deep: nested(200_000) }, 32)).toBe('deep');
  });
});
