/**
 * How Conduit signs its tokens: HS256 with `JWT_SECRET`. Without it the app uses a development secret and says so at
 * start: anyone who reads this file can sign tokens with it.
 */
import type { JwtModuleOptions } from '@nestjs/jwt';

export const DEVELOPMENT_SECRET = 'conduit-development-secret-do-not-deploy';

export function jwtOptions(secret: string = process.env['JWT_SECRET'] ?? DEVELOPMENT_SECRET): JwtModuleOptions {
  return {
    secret,
    signOptions: { algorithm: 'HS256', expiresIn: '7d' },
    verifyOptions: { algorithms: ['HS256'] },
  };
}
