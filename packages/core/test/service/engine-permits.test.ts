/** SvcEngine.permits: what a binding asks before it lists an operation to a caller. */
import { createSvc, type EntityConfig, type PolicyArgs } from '@svc/core';
import { MemoryRepositoryAdapter } from '../support/memory-adapter';
import { BOOK_METADATA } from '../support/fixtures';

function engineOf(config: EntityConfig, global: { policy?: (args: PolicyArgs) => boolean; operations?: object } = {}) {
  const adapter = new MemoryRepositoryAdapter(BOOK_METADATA, []);
  return createSvc(global as never).createCrud(BOOK_METADATA.target, config, { adapter }).engine;
}

describe('SvcEngine.permits', () => {
  it('is true for an operation without a policy', async () => {
    await expect(engineOf({}).permits('findMany')).resolves.toBe(true);
  });

  it('asks the nearest policy with the context, no row, no body and no id', async () => {
    const seen: PolicyArgs[] = [];
    const engine = engineOf(
      {
        policy: () => false,
        operations: { findMany: { policy: (args) => (seen.push(args), args.context['role'] === 'admin') } },
      },
      { policy: () => true },
    );
    await expect(engine.permits('findMany', { role: 'admin' })).resolves.toBe(true);
    await expect(engine.permits('findMany', { role: 'guest' })).resolves.toBe(false);
    await expect(engine.permits('createOne', { role: 'admin' })).resolves.toBe(false);
    expect(seen[0]).toEqual({
      operation: 'findMany',
      entity: undefined,
      params: {},
      body: undefined,
      context: { role: 'admin' },
    });
  });

  it('is false for an operation the entity does not serve or the global map disables', async () => {
    const engine = engineOf({}, { operations: { deleteOne: false } });
    await expect(engine.permits('deleteOne')).resolves.toBe(false);
    await expect(engine.permits('flyOne')).resolves.toBe(false);
  });
});
