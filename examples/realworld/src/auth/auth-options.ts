/**
 * How Conduit signs its tokens: HS256 with `JWT_SECRET`, as a key object (a string secret costs the JWT library about
 * a millisecond a token, first trying it as a public key). Without it the app uses a development secret and says so at
 * start: anyone who reads this file can sign tokens with it, so with `NODE_ENV=production` it refuses to start.
 */
import { createSecretKey } from 'node:crypto';
import type { JwtModuleOptions } from '@nestjs/jwt';

export const DEVELOPMENT_SECRET = 'conduit-development-secret-do-not-deploy';

export function jwtOptions(secret: string | undefined = process.env['JWT_SECRET']): JwtModuleOptions {
  if (secret === undefined && process.env['NODE_ENV'] === 'production')
    throw new Error('JWT_SECRET is not set: a production app does not sign tokens with the development secret.');
  return {
    secret: createSecretKey(Buffer.from(secret ?? DEVELOPMENT_SECRET)) as unknown as string,
    signOptions: { algorithm: 'HS256', expiresIn: '7d' },
    verifyOptions: { algorithms: ['HS256'] },
  };
}
