import type { ChangeAction, ChangeType } from '../../db/tables.js';

const TYPES: readonly ChangeType[] = ['event', 'venue', 'organizer', 'category', 'tag'];
const ACTIONS: readonly ChangeAction[] = ['created', 'updated', 'trashed', 'restored', 'deleted'];

/** Every event type a subscription may name: `event.created`, …, and `event.*` for all of a record type. */
export const WEBHOOK_EVENT_TYPES: readonly string[] = TYPES.flatMap((type) => [
  ...ACTIONS.map((action) => `${type}.${action}`),
  `${type}.*`,
]);

/** The event types of a comma-separated list or an array; `undefined` when one is unknown or none is given. */
export function parseEventTypes(value: unknown): string[] | undefined {
  const items = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : undefined;
  if (!items) return undefined;
  const types = [...new Set(items.map((item) => (typeof item === 'string' ? item.trim() : '')))];
  return types.length && types.every((type) => WEBHOOK_EVENT_TYPES.includes(type)) ? types : undefined;
}

/** Whether a subscription to `subscribed` receives `type` (`event.updated`). */
export function subscribes(subscribed: readonly string[], type: string): boolean {
  return subscribed.includes(type) || subscribed.includes(`${type.slice(0, type.indexOf('.'))}.*`);
}
