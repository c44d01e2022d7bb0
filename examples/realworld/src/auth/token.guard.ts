/**
 * Reads `Authorization: Token <jwt>` on every request (a global guard): a valid token puts `{ id, username }` on
 * `request.user`; a token that fails verification is a 401; no token goes on as anonymous, and the routes that need
 * a user say so with `AuthRequired`.
 */
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { SvcException } from '@svc/core';
import type { AuthenticatedRequest, TokenClaims } from './current-user';

@Injectable()
export class TokenGuard implements CanActivate {
  constructor(private readonly jwt: JwtService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const header = request.headers['authorization'];
    if (typeof header !== 'string' || header === '') return true;
    const token = /^(?:Token|Bearer)\s+(\S+)$/i.exec(header.trim())?.[1];
    try {
      const claims = await this.jwt.verifyAsync<TokenClaims>(token ?? '');
      if (typeof claims.sub !== 'number' || typeof claims.username !== 'string') throw new Error('unknown claims');
      request.user = { id: claims.sub, username: claims.username };
      return true;
    } catch {
      throw unauthorized('token', 'is invalid');
    }
  }
}

/** A 401 naming what is wrong (`{ errors: { token: ['is missing'] } }` once formatted). */
export function unauthorized(field: string, detail: string): SvcException {
  return new SvcException('SVC_HTTP_ERROR', {
    status: 401,
    detail: `${field} ${detail}`,
    errors: [{ field, code: 'unauthorized', detail }],
  });
}
