/** If-Match (strong, against the locked row) and If-None-Match (weak) handling. */
import { computeEtag, etagMatchesStrong, etagMatchesWeak } from '../../cache/etag';
import { PreconditionFailedException, PreconditionUnsupportedException } from '../../errors/svc-exception';
import { etagsOn, type OperationCall } from '../operation-call';
import { stage } from '../stage';

/** True when this call carries an If-Match the operation must honour. */
export function needsIfMatch(call: OperationCall): boolean {
  return etagsOn(call) && call.request.headers?.ifMatch !== undefined;
}

/** Throws 412 when If-Match does not match the current representation. */
export function checkIfMatch(call: OperationCall, representation: Record<string, unknown>): void {
  const header = call.request.headers?.ifMatch;
  if (!etagsOn(call) || header === undefined) return;
  if (!etagMatchesStrong(header, computeEtag(representation)))
    throw new PreconditionFailedException(call.entity.name, call.request.id);
}

/** If-Match on an operation that cannot honour it is 412 SVC_PRECONDITION_UNSUPPORTED. */
export function refuseIfMatch(call: OperationCall): void {
  if (needsIfMatch(call)) throw new PreconditionUnsupportedException(call.operation.id);
}

/** True when If-None-Match matches, so a read answers 304. */
export function ifNoneMatchHits(call: OperationCall, etag: string): boolean {
  const header = call.request.headers?.ifNoneMatch;
  return etagsOn(call) && header !== undefined && etagMatchesWeak(header, etag);
}

/** refuseIfMatch: an operation with no stored row to compare (create, a custom operation) refuses If-Match. */
export const refuseIfMatchStage = stage('refuseIfMatch', { phase: 'gate' }, (call) => refuseIfMatch(call));
