import { ROLE_CAPABILITIES, type Capability, type Role } from './roles.js';

/** Who is calling: a user, or `null` for an anonymous request. */
export interface Caller {
  id: number;
  login: string;
  role: Role;
}

export type Requester = Caller | null;

/** Anonymous callers hold no capability at all (common.md 7.3). */
export function can(who: Requester, cap: Capability): boolean {
  return who !== null && ROLE_CAPABILITIES[who.role].has(cap);
}

/** What the meta-capability checks need to know of a record. */
export interface OwnedRecord {
  author: number;
  status: string;
  /** Status before trashing, for trashed records. */
  trashed_status?: string | null;
}

const isOwner = (who: Requester, record: OwnedRecord) =>
  who !== null && record.author !== 0 && who.id === record.author;

function wasPublished(record: OwnedRecord): boolean {
  if (record.status === 'publish' || record.status === 'future') return true;
  return record.status === 'trash' && (record.trashed_status === 'publish' || record.trashed_status === 'future');
}

function mayChange(who: Requester, record: OwnedRecord, verb: 'edit' | 'delete'): boolean {
  const c = (name: string) => can(who, `${verb}_${name}` as Capability);
  if (isOwner(who, record)) return wasPublished(record) ? c('published_posts') : c('posts');
  if (!c('others_posts')) return false;
  if (record.status === 'publish' || record.status === 'future') return c('published_posts');
  if (record.status === 'private') return c('private_posts');
  return true;
}

/** `edit_post` (common.md 7.3). */
export function canEditRecord(who: Requester, record: OwnedRecord): boolean {
  return mayChange(who, record, 'edit');
}

/** `delete_post` (common.md 7.3). */
export function canDeleteRecord(who: Requester, record: OwnedRecord): boolean {
  return mayChange(who, record, 'delete');
}

/** `read_post` (common.md 7.3). */
export function canReadRecord(who: Requester, record: OwnedRecord): boolean {
  if (record.status === 'publish') return true;
  if (who === null) return false;
  if (isOwner(who, record)) return can(who, 'read');
  if (record.status === 'private') return can(who, 'read_private_posts');
  return canEditRecord(who, record);
}
