import { can, type Requester } from '../../auth/capabilities.js';
import { findUserById } from '../../auth/users.js';
import { args, coerceInteger } from '../../http/args.js';
import type { ArgDef } from '../../http/route.js';
import { isRecordId } from './ids.js';

/** The `author` argument of writes: the ID of an existing user (common.md 5.3). */
export function authorArg(noun: string): ArgDef<number> {
  return args.integer(`The ID of the ${noun}'s author.`, {
    validate: async (value, ctx) => {
      const id = coerceInteger(value);
      if (!isRecordId(id)) return false;
      return (await findUserById(ctx.app.db, id)) !== undefined;
    },
  });
}

/**
 * Naming an author other than oneself needs "edit others' posts" (decisions.md X 9, E23): part of
 * the write endpoints' permission.
 */
export function mayChooseAuthor(who: Requester, author: unknown): boolean {
  return author === undefined || author === null || author === who?.id || can(who, 'edit_others_posts');
}
