/**
 * One imported record written in one transaction (style.md rule 7): the endpoint's create or
 * update (call.ts) and the record's `import_sources` row together. The source key decides
 * between them, so importing the same record again updates it instead of duplicating it.
 */
import type { Transaction } from 'kysely';
import type { Database, PostType, Trx } from '../db/tables.js';
import type { RequestContext } from '../http/route.js';
import { categoryTaxonomy, tagTaxonomy, type Taxonomy } from '../resources/terms/index.js';
import { callEndpoint } from './call.js';
import { findImported, fingerprintOf, saveImported, type ImportedKind, type SourceKey } from './sources.js';

export type UpsertAction = 'created' | 'updated' | 'unchanged';

export interface Upserted {
  action: UpsertAction;
  id: number;
}

/** Where a kind of record is created and updated: its routes as the route table declares them. */
const ROUTES: Record<ImportedKind, { collection: string; postType?: PostType; taxonomy?: Taxonomy }> = {
  event: { collection: '/events', postType: 'event' },
  venue: { collection: '/venues', postType: 'venue' },
  organizer: { collection: '/organizers', postType: 'organizer' },
  category: { collection: '/categories', taxonomy: categoryTaxonomy },
  tag: { collection: '/tags', taxonomy: tagTaxonomy },
};

/** A record removed here for good (the trash purged, a term deleted) is created again. */
async function stillThere(trx: Trx, kind: ImportedKind, id: number): Promise<boolean> {
  const { postType, taxonomy } = ROUTES[kind];
  const row = postType
    ? await trx.selectFrom('posts').select('id').where('id', '=', id).where('type', '=', postType).executeTakeFirst()
    : await trx
        .selectFrom('terms')
        .select('id')
        .where('id', '=', id)
        .where('taxonomy', '=', taxonomy!.name)
        .executeTakeFirst();
  return row !== undefined;
}

/** Thrown to roll a dry run's write back once its outcome is known. */
class DryRun extends Error {
  constructor(readonly outcome: Upserted) {
    super('dry run');
  }
}

export interface UpsertOptions {
  /** Write nothing; report what would be done. */
  dryRun?: boolean;
  /**
   * Values an update sends for what `params` leaves out, so that what the source no longer holds
   * is cleared here too (a create has nothing to clear).
   */
  clearOnUpdate?: Record<string, unknown>;
  /**
   * Creates the record instead of the collection's `POST` alone (which may, for venues and
   * organizers, reuse a record of the same name); returns its ID.
   */
  create?: (trx: Transaction<Database>, ctx: RequestContext, params: Record<string, unknown>) => Promise<number>;
  /** Source state that is no parameter but decides what `after` does: part of the fingerprint. */
  state?: string;
  /**
   * Runs after the endpoint's write, in its transaction (e.g. trashing a cancelled event), with the
   * local ID and what was done.
   */
  after?: (trx: Transaction<Database>, outcome: Upserted, ctx: RequestContext) => Promise<Upserted>;
}

/**
 * Creates the record of `key` from `params`, or updates the local record it became with them;
 * leaves it alone when it was last written with the same `params`. Throws the endpoint's error
 * (a RestError) when it refuses them, and then nothing of the record is written.
 */
export async function upsertRecord(
  ctx: RequestContext,
  key: SourceKey,
  params: Record<string, unknown>,
  options: UpsertOptions = {},
): Promise<Upserted> {
  const fingerprint = fingerprintOf(options.state === undefined ? params : { params, state: options.state });
  const { collection } = ROUTES[key.kind];
  try {
    return await ctx.app.transact(async (trx) => {
      const known = await findImported(trx, key);
      const current = known && (await stillThere(trx, key.kind, known.local_id)) ? known : undefined;
      let outcome: Upserted;
      if (current?.fingerprint === fingerprint) {
        outcome = { action: 'unchanged', id: current.local_id };
      } else {
        const reply = current
          ? await callEndpoint(
              trx,
              ctx,
              'POST',
              `${collection}/(?P<id>\\d+)`,
              { ...options.clearOnUpdate, ...params },
              { id: String(current.local_id) },
            )
          : options.create
            ? { body: { id: await options.create(trx, ctx, params) } }
            : await callEndpoint(trx, ctx, 'POST', collection, params);
        outcome = { action: current ? 'updated' : 'created', id: (reply.body as { id: number }).id };
        await saveImported(trx, key, outcome.id, fingerprint);
      }
      if (options.after) outcome = await options.after(trx, outcome, ctx);
      if (options.dryRun) throw new DryRun(outcome);
      return outcome;
    });
  } catch (err) {
    if (err instanceof DryRun) return err.outcome;
    throw err;
  }
}
