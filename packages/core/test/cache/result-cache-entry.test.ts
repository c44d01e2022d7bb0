import type { ExecuteResponse } from '../../src/pipeline/operation-call';
import { policyRowOf, readResultCacheEntry, toResultCacheEntry } from '../../src/cache/result-cache-entry';

const throughJson = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

describe('toResultCacheEntry', () => {
  const row = { id: 1, title: 'A', createdAt: new Date('2024-01-01T00:00:00.000Z'), note: undefined };
  const response: ExecuteResponse = {
    status: 200,
    body: { id: 1, title: 'A', createdAt: '2024-01-01T00:00:00.000Z' },
    etag: '"abc"',
    headers: { ETag: '"abc"' },
  };

  describe('when the read is a findOne', () => {
    it('makes an entry a JSON round trip leaves equal, whose row revives as the read saw it', () => {
      const entry = toResultCacheEntry({ response, row })!;
      expect(throughJson(entry)).toStrictEqual(entry);
      expect(entry.response).toBe(response);
      const revived = readResultCacheEntry(throughJson(entry))!;
      expect(revived.response).toStrictEqual(response);
      expect(policyRowOf(revived)).toStrictEqual(row);
    });
  });

  describe('when the response holds members JSON would change', () => {
    it('stores the response as JSON carries it, so the miss serves what later hits serve', () => {
      const entry = toResultCacheEntry({
        response: { status: 200, body: { items: [{ file: Buffer.from('a'), gone: undefined }] }, headers: {} },
      })!;
      expect(entry.response).toStrictEqual({
        status: 200,
        body: { items: [{ file: { type: 'Buffer', data: [97] } }] },
        headers: {},
      });
      expect(throughJson(entry)).toStrictEqual(entry);
    });
  });

  describe('when the body holds a value JSON cannot carry', () => {
    it('gives no entry: the read is served uncached', () => {
      expect(toResultCacheEntry({ response: { status: 200, body: { n: 1n }, headers: {} } })).toBeUndefined();
    });
  });
});

describe('readResultCacheEntry', () => {
  it.each([
    ['nothing', undefined],
    ['a string', 'x'],
    ['no response', { row: { values: {} } }],
    ['a response without a status', { response: { headers: {} } }],
    ['a row without values', { response: { status: 200, headers: {} }, row: { id: 1 } }],
  ])('reads %s as a miss', (_, value) => {
    expect(readResultCacheEntry(value)).toBeUndefined();
  });
});

describe('policyRowOf', () => {
  it('gives undefined for an entry without a row or with a damaged one', () => {
    const response = { status: 200, headers: {} };
    expect(policyRowOf({ response })).toBeUndefined();
    expect(policyRowOf({ response, row: { values: { n: 'x' }, kinds: { n: 'bigint' } } })).toBeUndefined();
  });
});
