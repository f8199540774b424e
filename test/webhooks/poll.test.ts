import { it } from 'node:test';
import assert from 'node:assert/strict';
import { sql } from 'kysely';
import { firstWaitingChange } from '../../src/resources/webhooks/delivery.js';
import { planOf } from '../support/plans.js';
import { forEachBackend } from '../support/server.js';

/** Changes written at once, more than a planner reads through when it expects an early match. */
const CHANGES = 20_000;

forEachBackend('The webhook worker’s poll', (srv) => {
  it('reads the first change after the outbox position from the token index, waiting or not', async () => {
    const db = srv().db;
    const rows =
      srv().backend === 'postgres'
        ? sql`select n from generate_series(1, ${CHANGES}) as n`
        : sql`with recursive g(n) as (select 1 union all select n + 1 from g where n < ${CHANGES}) select n from g`;
    await sql`insert into record_changes (type, record_id, action, status, author, modified_utc, changed_utc)
      select 'event', n, 'updated', 'publish', 1, '2026-11-28 10:00:00', '2026-11-28 10:00:00' from (${rows}) as g`.execute(
      db,
    );
    await sql`update webhook_outbox set token = (select max(token) from record_changes)`.execute(db);
    await sql`analyze record_changes`.execute(db);

    // The planner's own costs: with sequential scans priced out, any form would read the index.
    const plan = await planOf(srv(), firstWaitingChange(db), { seqScans: true });
    assert.match(plan, /record_changes_token/, `the poll's plan:\n${plan}`);
    assert.doesNotMatch(plan, /Seq Scan on record_changes|SCAN record_changes\b(?! USING)/, plan);

    // Nothing after the position: no row; one more change: that one.
    const { token } = await db.selectFrom('webhook_outbox').select('token').executeTakeFirstOrThrow();
    assert.equal(await firstWaitingChange(db).executeTakeFirst(), undefined);
    await db.transaction().execute(async (trx) => {
      await sql`insert into record_changes (type, record_id, action, status, author, modified_utc, changed_utc)
        values ('event', 1, 'updated', 'publish', 1, '2026-11-28 10:00:00', '2026-11-28 10:00:00')`.execute(trx);
    });
    const waiting = await firstWaitingChange(db).executeTakeFirst();
    assert.ok(waiting && Number(waiting.token) > Number(token), `a change after ${token}: ${waiting?.token}`);
  });
});
