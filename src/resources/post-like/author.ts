import { can } from '../../auth/capabilities.js';
import { findUserById } from '../../auth/users.js';
import { args, coerceInteger } from '../../http/args.js';
import type { ArgDef, RequestContext } from '../../http/route.js';
import { isRecordId } from './ids.js';

/** The `author` argument of writes: the ID of an existing user (common.md 5.3). */
export function authorArg(noun: string): ArgDef {
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
export function mayChooseAuthor(ctx: RequestContext): boolean {
  const author = ctx.params.author as number | null | undefined;
  return author === undefined || author === null || author === ctx.user?.id || can(ctx.user, 'edit_others_posts');
}
