import { can } from '../../auth/capabilities.js';
import type { RequestContext } from '../../http/route.js';
import { termDescription, termName } from '../../text/html.js';

/** The longest stored name (terms.md O15: WordPress's 200-character column). */
export const TERM_NAME_MAX_LENGTH = 200;

/** A term name as stored (terms.md 1.7, O16). */
export function sanitizeTermName(name: string): string {
  return termName(name);
}

/**
 * A term description as stored: the inline allow-list for every role, verbatim only for callers
 * who hold `unfiltered_html` on a site that allows it (terms.md 1.7, decisions.md X 16).
 */
export function sanitizeTermDescription(description: string, ctx: Pick<RequestContext, 'user' | 'settings'>): string {
  if (ctx.settings.unfiltered_html && can(ctx.user, 'unfiltered_html')) return description;
  return termDescription(description);
}
