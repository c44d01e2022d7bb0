/** Runs a write and all its reads in one transaction, retrying deadlocks and serialization failures twice. */
import { TransactionFailedException } from '../errors/svc-exception';
import type { AdapterSession } from '../persistence/repository-adapter';
import type { OperationCall } from './operation-call';

const ATTEMPTS = 3;

export async function runInTransaction<T>(
  call: OperationCall,
  work: (session: AdapterSession) => Promise<T>,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call.entity.adapter.transaction(work);
    } catch (error) {
      if (!(error instanceof TransactionFailedException) || attempt >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 5 * attempt + Math.random() * 10));
    }
  }
}
