/** Identifies the caller from the `x-role` header; the policy decides what the caller may do. */
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ROLES, type Caller, type Role } from './caller';

interface RoleRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  user?: Caller;
}

/**
 * Sets `request.user` to `{ role }` when `x-role` names a known role, and lets every request through: refusing is
 * the policy's job, so a refused write answers 403 `SVC_FORBIDDEN` as problem details. A stand-in for real
 * authentication (a session or a verified token), which would set `request.user` the same way.
 */
@Injectable()
export class RoleGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<RoleRequest>();
    const role = request.headers['x-role'];
    if (typeof role === 'string' && (ROLES as readonly string[]).includes(role)) request.user = { role: role as Role };
    return true;
  }
}
