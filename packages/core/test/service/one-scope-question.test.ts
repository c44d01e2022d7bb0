/**
 * Which rows a caller may see is asked once per call: the load, the guard, the read-back and the lean-write check of
 * one call share one run of `filter.apply`, and the next call asks again.
 */
import { createSvc, type EntityConfig } from '@svc/core';
import { MemoryRepositoryAdapter } from '../support/memory-adapter';
import { BOOK_METADATA } from '../support/fixtures';

function booksScopedBy(apply: () => Record<string, unknown>) {
  const rows = [{ id: 1, title: 'A', pages: 1, published: false, status: 'draft', tenant: 't1', deletedAt: null }];
  const adapter = new MemoryRepositoryAdapter(BOOK_METADATA, rows);
  const config: EntityConfig = { filter: { apply }, policy: () => true };
  return createSvc({}).createCrud(BOOK_METADATA.target, config, { adapter });
}

describe('the scope question', () => {
  it('runs filter.apply once for a guarded write (guard and read-back), and again for the next call', async () => {
    let asked = 0;
    const books = booksScopedBy(() => (asked++, { tenant: { eq: 't1' } }));
    await books.patchOne(1, { title: 'B' });
    expect(asked).toBe(1);
    await books.patchOne(1, { title: 'C' });
    expect(asked).toBe(2);
  });

  it('keeps another tenant out of every step', async () => {
    const books = booksScopedBy(() => ({ tenant: { eq: 't2' } }));
    await expect(books.findOne(1)).rejects.toMatchObject({ code: 'SVC_NOT_FOUND' });
    await expect(books.patchOne(1, { title: 'B' })).rejects.toMatchObject({ code: 'SVC_NOT_FOUND' });
    await expect(books.deleteOne(1)).rejects.toMatchObject({ code: 'SVC_NOT_FOUND' });
  });
});
