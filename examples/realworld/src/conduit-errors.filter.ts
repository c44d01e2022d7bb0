/**
 * Answers the Svc errors of the app's own routes (the users routes) in Conduit's shape, as `conduitErrors` says.
 * TODO(errors.format): once `SvcModule.forRoot({ errors: { format: conduitErrors } })` serves every Svc error this
 * way, this filter goes.
 */
import { Catch, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { SvcException, toProblemDetails } from '@svc/core';
import { conduitErrors } from './conduit-errors';

interface JsonResponse {
  status(code: number): JsonResponse;
  json(body: unknown): unknown;
}

@Catch(SvcException)
export class ConduitErrorsFilter implements ExceptionFilter {
  catch(error: SvcException, host: ArgumentsHost): void {
    const problem = toProblemDetails(error);
    const answer = conduitErrors(problem) ?? { status: problem.status, body: problem };
    host.switchToHttp().getResponse<JsonResponse>().status(answer.status).json(answer.body);
  }
}
