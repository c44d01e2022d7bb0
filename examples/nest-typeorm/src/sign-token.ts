/**
 * Prints a bearer token for trying the example: `pnpm token editor` (or `reader`, or `admin`; `pnpm token editor acme` for the
 * tenancy app's tenant `acme`), signed with `JWT_SECRET` or the development secret, valid one hour. A real app issues tokens at sign-in, from its identity provider or a login
 * route; this script stands in for that, so the example needs no user store.
 */
import { JwtService } from '@nestjs/jwt';
import { jwtOptions } from './access/auth-options';
import { ROLES } from './access/caller';

const role = process.argv[2] ?? 'editor';
if (!(ROLES as readonly string[]).includes(role)) {
  console.error(`Usage: pnpm token <${ROLES.join('|')}> [tenant]`);
  process.exit(2);
}
const tenant = process.argv[3];
const claims = tenant ? { sub: `demo-${role}@${tenant}`, role, tenant } : { sub: `demo-${role}`, role };
console.log(new JwtService(jwtOptions()).sign(claims));
