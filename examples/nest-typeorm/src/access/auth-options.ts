/**
 * How the bookstore signs and checks its tokens: HS256 with `JWT_SECRET`, one hour by default. Without `JWT_SECRET`
 * the app uses a development secret and says so at start: anyone who reads this file can sign tokens with it.
 */
import type { JwtModuleOptions } from '@nestjs/jwt';

/** The secret anyone can read: only for trying the example on your machine. */
export const DEVELOPMENT_SECRET = 'svc-example-development-secret-do-not-deploy';

/** What a bookstore token carries besides its subject (`sub`) and times. */
export interface TokenClaims {
  readonly sub: string;
  readonly role: string;
  /** The tenant, where the app serves several. */
  readonly tenant?: string;
  /** When it expires (seconds since the epoch); a token without one is refused. */
  readonly exp?: number;
}

export function jwtOptions(secret: string = process.env['JWT_SECRET'] ?? DEVELOPMENT_SECRET): JwtModuleOptions {
  return {
    secret,
    // One algorithm, named: a token that says `alg: none` or any other algorithm is refused, not trusted.
    signOptions: { algorithm: 'HS256', expiresIn: '1h' },
    verifyOptions: { algorithms: ['HS256'] },
  };
}
