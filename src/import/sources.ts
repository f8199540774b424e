/**
 * Where imported records came from (table `import_sources`, migration 15): the key of a record in
 * its source, the local record it became, and a digest of what was last written for it.
 */
import { createHash } from 'node:crypto';
import type { ImportSourcesTable, Trx } from '../db/tables.js';

export type ImportedKind = ImportSourcesTable['kind'];

export interface SourceKey {
  /** `ics`, or `tec:` and the source's namespace root. */
  source: string;
  kind: ImportedKind;
  source_id: string;
}

/** The digest of the parameters a record was written with: equal digests, nothing to write. */
export function fingerprintOf(params: unknown): string {
  return createHash('sha256').update(JSON.stringify(params)).digest('base64url');
}

export async function findImported(trx: Trx, key: SourceKey) {
  return trx
    .selectFrom('import_sources')
    .select(['local_id', 'fingerprint'])
    .where('source', '=', key.source)
    .where('kind', '=', key.kind)
    .where('source_id', '=', key.source_id)
    .executeTakeFirst();
}

/** Every local ID of one kind of one source, by source ID (to resolve references in one read). */
export async function importedIds(trx: Trx, source: string, kind: ImportedKind): Promise<Map<string, number>> {
  const rows = await trx
    .selectFrom('import_sources')
    .select(['source_id', 'local_id'])
    .where('source', '=', source)
    .where('kind', '=', kind)
    .execute();
  return new Map(rows.map((row) => [row.source_id, row.local_id]));
}

export async function saveImported(trx: Trx, key: SourceKey, localId: number, fingerprint: string): Promise<void> {
  await trx
    .insertInto('import_sources')
    .values({ ...key, local_id: localId, fingerprint })
    .onConflict((oc) => oc.columns(['source', 'kind', 'source_id']).doUpdateSet({ local_id: localId, fingerprint }))
    .execute();
}
