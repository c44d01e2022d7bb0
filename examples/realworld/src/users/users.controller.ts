/**
 * Registration, sign-in and the signed-in user's own account: `POST /users`, `POST /users/login`, `GET /user` and
 * `PUT /user`, each answering `{ "user": { username, email, bio, image, token } }`. App code rather than Svc config:
 * Svc stores and serves rows, while these routes hash and check passwords and sign tokens (see the README).
 */
import { Body, Controller, Get, HttpCode, Post, Put, Req, UseGuards } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { InjectRepository } from '@nestjs/typeorm';
import { ConflictException, type SvcErrorItem } from '@svc/core';
import { Repository } from 'typeorm';
import { AuthRequired } from '../auth/auth-required.guard';
import type { AuthenticatedRequest, TokenClaims } from '../auth/current-user';
import { hashPassword, verifyPassword } from '../auth/password';
import { unauthorized } from '../auth/token.guard';
import { User } from '../entities';
import { userFields, type UserFields } from './user-body';

@Controller()
export class UsersController {
  constructor(
    @InjectRepository(User) private readonly users: Repository<User>,
    private readonly jwt: JwtService,
  ) {}

  @Post('users')
  async register(@Body() body: unknown) {
    const { username, email, password } = userFields(body, ['username', 'email', 'password'], false);
    const passwordHash = await hashPassword(password!);
    const { id } = await this.save({ username, email }, () =>
      this.users.insert({ username, email, passwordHash }).then(({ identifiers }) => identifiers[0] as { id: number }),
    );
    return this.answer(await this.users.findOneByOrFail({ id }));
  }

  @Post('users/login')
  @HttpCode(200)
  async login(@Body() body: unknown) {
    const { email, password } = userFields(body, ['email', 'password'], false);
    const user = await this.users.findOneBy({ email });
    if (!user || !(await verifyPassword(password!, user.passwordHash))) throw unauthorized('credentials', 'invalid');
    return this.answer(user);
  }

  @Get('user')
  @UseGuards(AuthRequired)
  async current(@Req() request: AuthenticatedRequest) {
    return this.answer(await this.signedIn(request));
  }

  @Put('user')
  @UseGuards(AuthRequired)
  async update(@Req() request: AuthenticatedRequest, @Body() body: unknown) {
    const user = await this.signedIn(request);
    const { password, ...changes }: UserFields & Partial<User> = userFields(
      body,
      ['username', 'email', 'password', 'bio', 'image'],
      true,
    );
    if (password !== undefined) changes.passwordHash = await hashPassword(password);
    if (Object.keys(changes).length > 0) {
      await this.save(changes, () => this.users.update({ id: user.id }, changes), user.id);
    }
    return this.answer(await this.users.findOneByOrFail({ id: user.id }));
  }

  /** The user the token names; one deleted since it was signed is a 401. */
  private async signedIn(request: AuthenticatedRequest): Promise<User> {
    const user = await this.users.findOneBy({ id: request.user!.id });
    if (!user) throw unauthorized('token', 'is invalid');
    return user;
  }

  /**
   * Runs a write of `username` and `email`, first refusing each that another user has with a 409 naming it; a write
   * that loses a race for one is refused the same way.
   */
  private async save<T>(fields: Pick<UserFields, 'username' | 'email'>, write: () => Promise<T>, self?: number) {
    const taken = async () => {
      const clashes: SvcErrorItem[] = [];
      for (const field of ['username', 'email'] as const) {
        const value = fields[field];
        const holder = value === undefined ? null : await this.users.findOneBy({ [field]: value });
        if (holder && holder.id !== self) clashes.push({ field, code: 'taken', detail: 'has already been taken' });
      }
      if (clashes.length > 0)
        throw new ConflictException('A username or email is taken.', undefined, { errors: clashes });
    };
    await taken();
    try {
      return await write();
    } catch (error) {
      await taken();
      throw error;
    }
  }

  private answer(user: User) {
    const claims: TokenClaims = { sub: user.id, username: user.username };
    const { username, email, bio, image } = user;
    return { user: { username, email, bio, image, token: this.jwt.sign(claims) } };
  }
}
