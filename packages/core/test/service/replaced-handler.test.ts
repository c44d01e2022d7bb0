/** A replacement handler of an operation that answers the row must return the row; one that does not is named. */
import { createSvc, type EntityConfig } from '@svc/core';
import { MemoryRepositoryAdapter } from '../support/memory-adapter';
import { BOOK_METADATA } from '../support/fixtures';

function booksWith(config: EntityConfig) {
  const rows = [{ id: 1, title: 'A', pages: 1, published: false, status: 'draft', deletedAt: null }];
  return createSvc({}).createCrud(BOOK_METADATA.target, config, {
    adapter: new MemoryRepositoryAdapter(BOOK_METADATA, rows),
  });
}

describe('a replacement handler that returns no row', () => {
  it('answers 500 SVC_CONFIG_INVALID naming the handler, for a read by id', async () => {
    const books = booksWith({ operations: { findOne: { handler: async () => undefined } } });
    await expect(books.engine.execute({ operation: 'findOne', id: 1 })).rejects.toMatchObject({
      code: 'SVC_CONFIG_INVALID',
      status: 500,
      message: expect.stringContaining('operations.findOne.handler'),
    });
  });

  it('rolls back what a replaced patch wrote before it returned null', async () => {
    const books = booksWith({
      operations: {
        findOne: true,
        patchOne: {
          handler: async (input, context) => {
            await context.repository!.update(input.id as number, { title: 'B' }, context);
            return null;
          },
        },
      },
    });
    await expect(books.patchOne(1, { title: 'B' })).rejects.toMatchObject({ code: 'SVC_CONFIG_INVALID' });
    expect(await books.findOne(1)).toMatchObject({ title: 'A' });
  });

  it('is allowed for a delete, which answers nothing', async () => {
    const books = booksWith({ operations: { deleteOne: { handler: async () => undefined } } });
    await expect(books.engine.execute({ operation: 'deleteOne', id: 1 })).resolves.toMatchObject({ status: 204 });
  });
});
