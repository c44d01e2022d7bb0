import type { ColumnMetadata } from '../../src/persistence/entity-metadata';
import { checkColumnValue } from '../../src/schema/check-column-value';

const column = (extra: Partial<ColumnMetadata>): ColumnMetadata => ({
  property: 'value',
  kind: 'string',
  nullable: true,
  primary: false,
  generated: false,
  hasDefault: false,
  deleteMarker: false,
  ...extra,
});

describe('checkColumnValue', () => {
  describe('on a bigint column', () => {
    const big = column({ kind: 'bigint' });

    it('takes the signed 64-bit range, as digits, and safe integers as numbers', () => {
      for (const value of ['9223372036854775807', '-9223372036854775808', '0', '-0', '00042'])
        expect(checkColumnValue(big, value)).toEqual({ ok: true, value });
      expect(checkColumnValue(big, Number.MAX_SAFE_INTEGER)).toEqual({ ok: true, value: '9007199254740991' });
    });

    it('refuses a value past the range as out_of_range, naming the range and what to do', () => {
      for (const value of ['9223372036854775808', '-9223372036854775809', '9999999999999999999', '1'.repeat(400)]) {
        expect(checkColumnValue(big, value)).toEqual({
          ok: false,
          code: 'out_of_range',
          reason:
            'is out of range: a bigint column holds a signed 64-bit integer, from -9223372036854775808 to ' +
            '9223372036854775807; send a value in that range',
        });
      }
    });

    it('refuses what is not an integer as invalid_value (no code)', () => {
      for (const value of ['1.5', '1e3', '', ' 1', 2 ** 53, 1.5, true]) {
        const checked = checkColumnValue(big, value);
        expect(checked).toMatchObject({ ok: false });
        expect(checked).not.toHaveProperty('code');
      }
    });
  });

  describe('on a decimal(12,2) column', () => {
    const money = column({ kind: 'decimal', precision: 12, scale: 2 });

    it('takes a value within 10 digits before the point and 2 after it, trailing and leading zeros aside', () => {
      for (const value of ['9999999999.99', '-9999999999.99', '12.340000', '0000000000012.3', '0', '-0.01'])
        expect(checkColumnValue(money, value)).toEqual({ ok: true, value });
      expect(checkColumnValue(money, 12.5)).toEqual({ ok: true, value: '12.5' });
    });

    it('refuses more digits after the point as out_of_range, saying how to round', () => {
      expect(checkColumnValue(money, '12.345')).toEqual({
        ok: false,
        code: 'out_of_range',
        reason: 'has 3 digits after the point, and a decimal(12,2) column keeps 2; round it to 2 decimal places',
      });
      expect(checkColumnValue(money, 0.1 + 0.2)).toMatchObject({ ok: false, code: 'out_of_range' });
      expect(checkColumnValue(money, 1e-7)).toMatchObject({ ok: false, code: 'out_of_range' });
    });

    it('refuses more digits before the point as out_of_range, naming the largest value', () => {
      expect(checkColumnValue(money, '10000000000')).toEqual({
        ok: false,
        code: 'out_of_range',
        reason:
          'is out of range: a decimal(12,2) column keeps 10 digits before the point (at most 9999999999.99); ' +
          'send a smaller value',
      });
      expect(checkColumnValue(money, 1e21)).toMatchObject({ ok: false, code: 'out_of_range' });
    });

    it('writes a number in exponent form as plain digits', () => {
      const loose = column({ kind: 'decimal' });
      expect(checkColumnValue(loose, 1e21)).toEqual({ ok: true, value: '1000000000000000000000' });
      expect(checkColumnValue(loose, -1.5e-7)).toEqual({ ok: true, value: '-0.00000015' });
      expect(checkColumnValue(loose, 1.25e-5)).toEqual({ ok: true, value: '0.0000125' });
    });

    it('checks each item of a list of decimals, keeping the code', () => {
      const list = column({ kind: 'json', precision: 12, scale: 2, list: { of: 'decimal' } });
      expect(checkColumnValue(list, ['1.00', '1.001'])).toEqual({
        ok: false,
        code: 'out_of_range',
        reason:
          'item [1] has 3 digits after the point, and a decimal(12,2) column keeps 2; round it to 2 decimal places',
      });
    });

    it('takes any number of digits where the precision is unknown (PostgreSQL numeric, SQLite)', () => {
      const loose = column({ kind: 'decimal' });
      expect(checkColumnValue(loose, '123456789012345678901234567890.123')).toMatchObject({ ok: true });
    });
  });
});
