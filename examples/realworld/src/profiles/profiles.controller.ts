/**
 * Profiles, Svc config on the User entity: `GET /profiles/:username` answers `{ profile }` with `following` computed
 * for the caller; following and unfollowing are custom operations (see the README).
 */
import { Controller, UseGuards } from '@nestjs/common';
import { sql, table, type HandlerContext, type SvcOperationInput } from '@svc/core';
import { Override, Svc } from '@svc/nestjs';
import { AuthRequired } from '../auth/auth-required.guard';
import { currentUserOf } from '../auth/current-user';
import { User } from '../entities';

const signedIn = { decorators: [UseGuards(AuthRequired)] };

@Svc(User, {
  identifier: { field: 'username' },
  envelope: { item: 'profile' },
  select: { fields: ['username', 'bio', 'image', 'following'] },
  computed: {
    following: {
      kind: 'boolean',
      select: (column, context) =>
        sql`EXISTS (SELECT 1 FROM ${table('follows')} f WHERE f.followee_id = ${column('id')} AND f.follower_id = ${currentUserOf(context)?.id ?? null})`,
    },
  },
  operations: {
    findOne: true,
    followOne: { meta: { ...signedIn, routes: { method: 'POST', path: ':username/follow', successStatus: 200 } } },
    unfollowOne: { meta: { ...signedIn, routes: { method: 'DELETE', path: ':username/follow', successStatus: 200 } } },
  },
})
@Controller('profiles')
export class ProfilesController {
  @Override('followOne')
  follow(input: SvcOperationInput, context: HandlerContext<User>) {
    return this.followedBy(input, context, true);
  }

  @Override('unfollowOne')
  unfollow(input: SvcOperationInput, context: HandlerContext<User>) {
    return this.followedBy(input, context, false);
  }

  /** The caller follows (or stops following) the user; answers the profile as the caller now reads it. */
  private async followedBy(input: SvcOperationInput, context: HandlerContext<User>, on: boolean) {
    const caller = currentUserOf(context)!.id;
    const followee = await context.repository.findOne({ key: input.key! });
    // Who follows whom is the caller's row's relation: the followed user is its member.
    await context.repository.relate({ id: caller }, 'followees', {
      remove: [followee!.id],
      add: on ? [followee!.id] : [],
    });
    return context.repository.findOne({ key: input.key! });
  }
}
