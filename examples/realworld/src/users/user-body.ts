/**
 * What the users routes accept: `{ "user": { ... } }`, each field checked as Conduit's tests expect (a blank or null
 * email, username or password is "can't be blank"; a password has 8 to 256 characters; an empty bio or image is
 * stored as null). Every problem is named at once, as one 422.
 */
import { ValidationFailedException, type SvcErrorItem } from '@svc/core';

export interface UserFields {
  username?: string;
  email?: string;
  password?: string;
  bio?: string | null;
  image?: string | null;
}

const NULLABLE = ['bio', 'image'] as const;
const PASSWORD = { min: 8, max: 256 };

/**
 * The fields of `body.user` that `names` lists: required on a create (`partial` false), checked where given on an
 * update. Throws a 400 SVC_VALIDATION_FAILED naming each bad field.
 */
export function userFields(body: unknown, names: readonly (keyof UserFields)[], partial: boolean): UserFields {
  const user = (body as { user?: unknown } | undefined)?.user;
  if (user === null || typeof user !== 'object' || Array.isArray(user)) {
    throw new ValidationFailedException([{ field: 'user', code: 'required', detail: "can't be blank" }]);
  }
  const given = user as Record<string, unknown>;
  const fields: UserFields = {};
  const problems: SvcErrorItem[] = [];
  const fail = (field: string, code: string, detail: string) => problems.push({ field, code, detail });
  for (const name of names) {
    const value = given[name];
    if (value === undefined && partial) continue;
    if ((NULLABLE as readonly string[]).includes(name)) {
      if (value === undefined || value === null || value === '') fields[name as 'bio' | 'image'] = null;
      else if (typeof value === 'string') fields[name as 'bio' | 'image'] = value;
      else fail(name, 'type', 'must be a string');
      continue;
    }
    if (typeof value !== 'string' || value.trim() === '') {
      if (value === undefined || value === null || typeof value === 'string') fail(name, 'blank', "can't be blank");
      else fail(name, 'type', 'must be a string');
    } else if (name === 'password' && (value.length < PASSWORD.min || value.length > PASSWORD.max)) {
      fail(name, 'length', `must have ${PASSWORD.min} to ${PASSWORD.max} characters`);
    } else fields[name as 'username' | 'email' | 'password'] = value;
  }
  if (problems.length > 0) throw new ValidationFailedException(problems);
  return fields;
}
