import { isoText } from '../../src/schema/date-values';

describe('isoText', () => {
  it('writes what toISOString writes at the edges of the four-digit years and of days, months and leap years', () => {
    const edges = [
      -62_167_219_200_000, // 0000-01-01T00:00:00.000Z
      253_402_300_799_999, // 9999-12-31T23:59:59.999Z
      0,
      -1,
      1,
      Date.UTC(1600, 1, 29, 12),
      Date.UTC(1900, 1, 28, 23, 59, 59, 999),
      Date.UTC(1900, 2, 1),
      Date.UTC(2000, 1, 29),
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2024, 11, 31, 23, 59, 59, 999),
      Date.UTC(2025, 0, 1),
      Date.UTC(2026, 10, 24, 14, 0, 7, 123),
    ];
    for (const time of edges) expect(isoText(new Date(time))).toBe(new Date(time).toISOString());
  });

  it('writes what toISOString writes for every day of 1899-2101 and random instants over the whole range', () => {
    for (let time = Date.UTC(1899, 0, 1); time < Date.UTC(2101, 0, 1); time += 86_400_000 + 3_723_017) {
      expect(isoText(new Date(time))).toBe(new Date(time).toISOString());
    }
    let seed = 42;
    const next = (): number => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let i = 0; i < 50_000; i++) {
      const time = Math.floor(-62_167_219_200_000 + next() * (253_402_300_800_000 + 62_167_219_200_000));
      expect(isoText(new Date(time))).toBe(new Date(time).toISOString());
    }
  });

  it('hands years outside 0000-9999 and invalid dates to toISOString (six-digit years; RangeError)', () => {
    for (const time of [-62_167_219_200_001, 253_402_300_800_000, 8.64e15, -8.64e15]) {
      expect(isoText(new Date(time))).toBe(new Date(time).toISOString());
    }
    expect(() => isoText(new Date(Number.NaN))).toThrow(RangeError);
  });
});
