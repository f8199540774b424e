/**
 * The IDs of an SQL `in (…)` list whose length follows the request (the events of a page, their
 * images), once each and padded to the next power of two by repeating the last one, which changes
 * no match. Every length is a statement text of its own, which SQLite prepares once and each
 * connection keeps (sqlite-request-driver.ts, sqlite-worker-thread.ts): pages of 1 to 50 events
 * then need 7 texts per query instead of 50.
 */
export function paddedIds(ids: Iterable<number>): number[] {
  const unique = [...new Set(ids)];
  let size = 1;
  while (size < unique.length) size *= 2;
  const last = unique[unique.length - 1];
  while (last !== undefined && unique.length < size) unique.push(last);
  return unique;
}
