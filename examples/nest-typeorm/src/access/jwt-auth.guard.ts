/**
 * Authenticates every request from a bearer token, on every surface: REST, GraphQL (`/graphql`), the agent tools
 * (`/mcp`) and the event streams all reach the app through Nest's guards, so one global guard covers them. A valid
 * token puts `{ id, role }` (and `tenant`, when the token names one) on `request.user`, which the policy, `filter.apply` and `set` read through `callerOf`.
 *
 * - No token: the request goes on as anonymous, and the policy decides (reads are open in the bookstore).
 * - A token that fails verification (bad signature, expired, another algorithm, malformed, an unknown role): 401
 *   with `WWW-Authenticate: Bearer error="invalid_token"` (RFC 6750), never anonymous, so a client whose token ran
 *   out learns it rather than silently seeing less.
 * - A token must name its subject and expire (`exp`): a signed token good forever is refused too.
 * - The token travels in `Authorization: Bearer <token>`; an event stream (a GET of `/<path>/events` asking for
 *   `text/event-stream`) may carry it as `?access_token=<token>` instead, since a browser's EventSource cannot send
 *   headers. Only there: a token in a URL can end up in logs and
 *   history, so other requests must use the header.
 */
import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import type { TokenClaims } from './auth-options';
import { ROLES, type Caller, type Role } from './caller';

interface AuthRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly method: string;
  readonly url: string;
  user?: Caller;
}

interface HeaderSink {
  header?(name: string, value: string): unknown;
  setHeader?(name: string, value: string): unknown;
}

@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(private readonly jwt: JwtService) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthRequest>();
    try {
      const token = tokenOf(request);
      if (token !== undefined) request.user = callerFrom(await this.jwt.verifyAsync<TokenClaims>(token));
      return true;
    } catch (error) {
      const response = http.getResponse<HeaderSink>();
      const challenge = 'Bearer realm="bookstore", error="invalid_token"';
      if (response.header) response.header('WWW-Authenticate', challenge);
      else response.setHeader?.('WWW-Authenticate', challenge);
      throw new UnauthorizedException(reasonOf(error));
    }
  }
}

/** The bearer token of the request: its Authorization header, or `access_token` on an event stream. */
function tokenOf(request: AuthRequest): string | undefined {
  const header = request.headers['authorization'];
  if (typeof header === 'string' && header !== '') {
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (!match) throw new Error('the Authorization header must be "Bearer <token>".');
    return match[1];
  }
  if (!isEventStream(request)) return undefined;
  const query = request.url.includes('?') ? new URLSearchParams(request.url.slice(request.url.indexOf('?'))) : null;
  return query?.get('access_token') ?? undefined;
}

/** A GET of an event route (`/<path>/events`) that asks for an event stream, as EventSource sends it. */
function isEventStream(request: AuthRequest): boolean {
  const accept = request.headers['accept'];
  if (request.method !== 'GET' || typeof accept !== 'string' || !accept.includes('text/event-stream')) return false;
  const query = request.url.indexOf('?');
  return (query === -1 ? request.url : request.url.slice(0, query)).replace(/\/+$/, '').endsWith('/events');
}

/** The caller a verified token names; a token without a subject or with a role the bookstore does not know is refused. */
function callerFrom(claims: TokenClaims): Caller {
  if (typeof claims.sub !== 'string' || claims.sub === '') throw new Error('it names no subject (sub).');
  // A signed token without an expiry would be good forever: the app refuses to trust one.
  if (typeof claims.exp !== 'number') throw new Error('it has no expiry (exp).');
  if (!(ROLES as readonly string[]).includes(claims.role)) throw new Error('it names no role the app knows.');
  if (claims.tenant === undefined) return { id: claims.sub, role: claims.role as Role };
  if (typeof claims.tenant !== 'string' || claims.tenant === '') throw new Error('its tenant is not a name.');
  return { id: claims.sub, role: claims.role as Role, tenant: claims.tenant };
}

/** What the 401 says: enough for the client to know what to do, nothing about the secret. */
function reasonOf(error: unknown): string {
  const name = (error as { name?: unknown }).name;
  if (name === 'TokenExpiredError') return 'The bearer token has expired. Sign in again.';
  if (name === 'NotBeforeError') return 'The bearer token is not valid yet.';
  if (name === 'JsonWebTokenError') return 'The bearer token is not valid (its signature, algorithm or format).';
  return `The bearer token is refused: ${error instanceof Error ? error.message : String(error)}`;
}
