/** Bearer tokens for the example's tests, signed as the app checks them (or, on purpose, not). */
import { JwtService } from '@nestjs/jwt';
import { jwtOptions } from '../src/access/auth-options';

export interface TokenOptions {
  readonly sub?: string;
  /** Another secret than the app's: a token the app must refuse. */
  readonly secret?: string;
  /** Seconds until it expires; negative for a token that already has. @default 3600 */
  readonly expiresIn?: number;
  /** Claims laid over `{ sub, role }`. */
  readonly claims?: Record<string, unknown>;
}

/** A token for `role` (any string: an unknown role is a case to test), signed with the app's secret by default. */
export function tokenFor(role: string, options: TokenOptions = {}): string {
  // The app's options, but the expiry set here, so a test can sign one that has already run out.
  const jwt = new JwtService({ ...jwtOptions(options.secret), signOptions: { algorithm: 'HS256' } });
  const now = Math.floor(Date.now() / 1000);
  const exp = now + (options.expiresIn ?? 3600);
  return jwt.sign({ sub: options.sub ?? `test-${role}`, role, ...options.claims, iat: now, exp });
}

/** The Authorization header of a caller with `role`. */
export function bearer(role: string, options: TokenOptions = {}): { authorization: string } {
  return { authorization: `Bearer ${tokenFor(role, options)}` };
}
