/**
 * Authenticates every request from its bearer token, on every surface (REST, GraphQL, the agent tools, the event
 * streams). A valid token puts the caller on `request.user`; a token that fails, or no token on a route that is not
 * `@Public()`, is a 401 with a `WWW-Authenticate` challenge (RFC 6750).
 */
import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { JwtService } from '@nestjs/jwt';
import { ROLES, type Caller, type Role } from './caller';
import { IS_PUBLIC } from './public.decorator';

interface AuthRequest {
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly method: string;
  readonly url: string;
  user?: Caller;
}

/** Express's response and Fastify's reply both set a header this way. */
interface Reply {
  header(name: string, value: string): unknown;
}

@Injectable()
export class JwtAuthGuard implements CanActivate {
  constructor(
    private readonly jwt: JwtService,
    private readonly reflector: Reflector,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const http = context.switchToHttp();
    const request = http.getRequest<AuthRequest>();
    let token: string | undefined;
    try {
      token = tokenOf(request);
      if (token !== undefined) request.user = callerFrom(await this.jwt.verifyAsync(token));
    } catch (error) {
      // A token that fails is never taken as anonymous: a client whose token ran out must learn it.
      throw challenge(http.getResponse<Reply>(), reasonOf(error), 'invalid_token');
    }
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (token !== undefined || isPublic) return true;
    const response = http.getResponse<Reply>();
    throw challenge(response, 'This route needs a bearer token: send "Authorization: Bearer <token>".');
  }
}

/** The 401 and its challenge; `error` only when a token was sent and refused (RFC 6750, section 3.1). */
function challenge(response: Reply, detail: string, error?: 'invalid_token'): UnauthorizedException {
  response.header('WWW-Authenticate', `Bearer realm="bookshop"${error ? `, error="${error}"` : ''}`);
  return new UnauthorizedException(detail);
}

/** The Authorization header's bearer token, or `access_token` on an event stream; undefined when there is none. */
function tokenOf(request: AuthRequest): string | undefined {
  const header = request.headers['authorization'];
  if (typeof header === 'string' && header !== '') {
    const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
    if (!match) throw new Error('the Authorization header must be "Bearer <token>".');
    return match[1];
  }
  if (!isEventStream(request)) return undefined;
  return new URL(request.url, 'http://localhost').searchParams.get('access_token') ?? undefined;
}

/**
 * A GET of an event route (`/<path>/events`) that asks for `text/event-stream`, as a browser's EventSource does: it
 * cannot send headers. Only there, since a token in a URL can end up in logs and browser history.
 */
function isEventStream(request: AuthRequest): boolean {
  const accept = request.headers['accept'];
  if (request.method !== 'GET' || typeof accept !== 'string' || !accept.includes('text/event-stream')) return false;
  return new URL(request.url, 'http://localhost').pathname.replace(/\/+$/, '').endsWith('/events');
}

/** The caller a verified token names. A token must name its subject and a known role, and expire. */
function callerFrom(claims: Record<string, unknown>): Caller {
  const { sub, role, tenant, exp } = claims;
  if (typeof sub !== 'string' || sub === '') throw new Error('it names no subject (sub).');
  if (typeof exp !== 'number') throw new Error('it has no expiry (exp).');
  if (!ROLES.includes(role as Role)) throw new Error('it names no role the app knows.');
  if (tenant === undefined) return { id: sub, role: role as Role };
  if (typeof tenant !== 'string' || tenant === '') throw new Error('its tenant is not a name.');
  return { id: sub, role: role as Role, tenant };
}

/** What the 401 says: enough for the client to know what to do, nothing about the secret. */
function reasonOf(error: unknown): string {
  const name = (error as { name?: unknown }).name;
  if (name === 'TokenExpiredError') return 'The bearer token has expired. Sign in again.';
  if (name === 'JsonWebTokenError') return 'The bearer token is not valid (its signature, algorithm or format).';
  return `The bearer token is refused: ${error instanceof Error ? error.message : String(error)}`;
}
