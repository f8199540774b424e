/** What an import did, record by record, and the totals an operator reads first. */
import { RestError } from '../http/errors.js';

export type ItemAction = 'created' | 'updated' | 'unchanged' | 'trashed' | 'skipped';

export interface ReportItem {
  /** `event`, `venue`, …: what the source record is. */
  kind: string;
  /** The record's key in its source (an iCalendar UID, a TEC ID); `null` when it has none. */
  source_id: string | null;
  /** Where the record begins in an iCalendar file. */
  line?: number;
  action: ItemAction;
  /** The local record, when there is one. */
  id?: number;
  /** Why a record was skipped. */
  reason?: string;
}

export interface ImportReport {
  dry_run: boolean;
  created: number;
  updated: number;
  unchanged: number;
  trashed: number;
  skipped: number;
  items: ReportItem[];
}

export function emptyReport(dryRun: boolean): ImportReport {
  return { dry_run: dryRun, created: 0, updated: 0, unchanged: 0, trashed: 0, skipped: 0, items: [] };
}

export function record(report: ImportReport, item: ReportItem): void {
  report[item.action] += 1;
  report.items.push(item);
}

/**
 * Why the service refused a record, as an operator reads it: the error's message and, for
 * invalid parameters, which ones and why.
 */
export function refusalReason(err: RestError): string {
  const data = err.body.data as { params?: unknown; details?: unknown } | null;
  const details = (data?.details ?? {}) as Record<string, { message?: string }>;
  const params = data?.params;
  const named = Array.isArray(params)
    ? params.map(String)
    : Object.entries((params ?? {}) as Record<string, string>).map(
        ([name, message]) => details[name]?.message ?? `${name}: ${message}`,
      );
  return `${err.code}: ${err.message}${named.length ? ` (${named.join('; ')})` : ''}`;
}

/** The totals on one line: `created 3, updated 1, unchanged 0, trashed 0, skipped 2`. */
export function reportTotals(report: ImportReport): string {
  return (['created', 'updated', 'unchanged', 'trashed', 'skipped'] as const)
    .map((action) => `${action} ${report[action]}`)
    .join(', ');
}
