/**
 * A 401 for a request without a signed-in user: `@UseGuards(AuthRequired)` on a route, or in a Svc operation's
 * `meta.decorators`. It runs after the global `TokenGuard`, which has read the token.
 */
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { AuthenticatedRequest } from './current-user';
import { unauthorized } from './token.guard';

@Injectable()
export class AuthRequired implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.switchToHttp().getRequest<AuthenticatedRequest>().user) return true;
    throw unauthorized('token', 'is missing');
  }
}
