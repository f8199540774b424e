import type { DatabaseFaultKind, WriteFailure } from '../db/faults.js';

/**
 * Every error the interface can answer with: code, exact message and HTTP status (common.md 4).
 * Handlers throw these; one renderer turns them into `{code, message, data}`.
 */
export class RestError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly status: number,
    /** Extra members of `data` besides `status`; `null` renders `data: null` (common.md 4.1). */
    readonly extra: Record<string, unknown> | null = {},
    /** Extra top-level members (e.g. `additional_data`). */
    readonly top: Record<string, unknown> = {},
    /** Response headers the error calls for (e.g. `Retry-After`). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }

  get body(): Record<string, unknown> {
    const data = this.extra === null ? null : { status: this.status, ...this.extra };
    return { code: this.code, message: this.message, data, ...this.top };
  }
}

/**
 * Seconds a client refused for an interruption of the service (a shutdown, a database outage or
 * write fault) is asked to wait before sending the request again: about a restart's or a failover's
 * length.
 */
export const RETRY_AFTER_SECONDS = 5;

const e = (code: string, message: string, status: number, extra: Record<string, unknown> | null = {}) =>
  new RestError(code, message, status, extra);

/** A validator's failure for one parameter: a plain rejection or an error object (common.md 4.4). */
export type ParamFailure = { message: string; error?: { code: string; message: string; data: unknown } };

export const restErrors = {
  // WordPress REST layer (common.md 4.3)
  noRoute: () => e('rest_no_route', 'No route was found matching the URL and request method.', 404),
  invalidJson: (detail: string) =>
    e('rest_invalid_json', 'Invalid JSON body passed.', 400, { json_error_code: 4, json_error_message: detail }),
  /** PHP's JSON_ERROR_DEPTH: nesting past `json_decode`'s depth (http/input.ts). */
  jsonTooDeep: () =>
    e('rest_invalid_json', 'Invalid JSON body passed.', 400, {
      json_error_code: 1,
      json_error_message: 'Maximum stack depth exceeded',
    }),
  bodyTooLarge: () => e('rest_body_too_large', 'The request body is too large.', 413),
  /** `bodyLooksLikeJson`: the body was read as a form but is JSON, the usual cause of the names missing. */
  missingParams: (names: string[], bodyLooksLikeJson = false) =>
    e(
      'rest_missing_callback_param',
      `Missing parameter(s): ${names.join(', ')}${bodyLooksLikeJson ? ' (the body looks like JSON: send Content-Type: application/json)' : ''}`,
      400,
      { params: names },
    ),
  invalidParams: (failures: Map<string, ParamFailure>) => {
    // Names may come from the request (http/input.ts): prototype-less, so any name is a plain key.
    const params: Record<string, string> = Object.create(null);
    const details: Record<string, unknown> = Object.create(null);
    for (const [name, f] of failures) {
      params[name] = f.message;
      if (f.error) details[name] = f.error;
    }
    return e('rest_invalid_param', `Invalid parameter(s): ${[...failures.keys()].join(', ')}`, 400, {
      params,
      details: Object.keys(details).length ? details : [],
    });
  },
  /** One parameter refused before any validator runs (a forbidden key inside it, http/input.ts). */
  invalidParam: (name: string): RestError => restErrors.invalidParams(new Map([[name, invalidParameter]])),
  forbidden: (authenticated: boolean) =>
    e('rest_forbidden', 'Sorry, you are not allowed to do that.', authenticated ? 403 : 401),
  invalidNamespace: () => e('rest_invalid_namespace', 'The specified namespace could not be found.', 404),
  internal: () => e('rest_internal_error', 'An internal error occurred while handling the request.', 500),

  // The HTTP layer: requests refused before routing, where WordPress would answer through its web
  // server; not in the reference, so codes of our own in the same shape (docs/operations.md "HTTP-level errors").
  invalidRequest: () => e('rest_invalid_request', 'The request could not be read.', 400),
  invalidRequestUrl: () => e('rest_invalid_request', 'The request URL could not be decoded.', 400),
  invalidRequestSyntax: () => e('rest_invalid_request', 'The request is not valid HTTP.', 400),
  invalidRequestHost: () => e('rest_invalid_request', 'An HTTP/1.1 request must have a Host header.', 400),
  requestTimeout: () => e('rest_request_timeout', 'The request was not received in time.', 408),
  requestUriTooLong: () => e('rest_request_uri_too_long', 'The request URL is too long.', 414),
  expectationFailed: () => e('rest_expectation_failed', 'The expectation in the Expect header cannot be met.', 417),
  requestHeaderFieldsTooLarge: () =>
    e('rest_request_header_fields_too_large', 'The request header fields are too large.', 431),
  serviceUnavailable: () =>
    new RestError(
      'rest_service_unavailable',
      'The server is shutting down; send the request again shortly.',
      503,
      {},
      {},
      {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      },
    ),

  // Database faults (db/faults.ts, docs/operations.md "Database outages and faults"): not the request's fault,
  // so not a 500; a client may send the same request again. They stand in for the reference's 500s
  // of a failed delete (`could-not-delete-event`, `-venue`, `-organizer`, `rest_cannot_delete`;
  // common.md 4.5, 4.6).
  databaseUnavailable: () =>
    new RestError(
      'rest_database_unavailable',
      'The database is unavailable; send the request again shortly.',
      503,
      {},
      {},
      {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      },
    ),
  insufficientStorage: () =>
    e('rest_insufficient_storage', 'The database has no room left to store the change; nothing was saved.', 507),
  databaseWriteFailed: () =>
    new RestError(
      'rest_database_write_failed',
      'The database cannot store changes right now; nothing was saved.',
      503,
      {},
      {},
      {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      },
    ),

  // Authentication (common.md 7.2)
  invalidUsername: () =>
    e('invalid_username', '<strong>Error:</strong> Unknown username. Check again or try your email address.', 401),
  invalidEmail: () =>
    e('invalid_email', '<strong>Error:</strong> Unknown email address. Check again or try your username.', 401),
  incorrectPassword: () => e('incorrect_password', 'The provided password is an invalid application password.', 401),
  applicationPasswordsDisabledForUser: () =>
    e(
      'application_passwords_disabled_for_user',
      'Application passwords are not available for your account. Please contact the site administrator for assistance.',
      401,
    ),
  httpsRequired: () => e('application_passwords_disabled', 'Application passwords are not available.', 401),

  // Throttling (docs/operations.md "Security"): WordPress has none of its own; 429 with Retry-After (RFC 6585 4).
  tooManyLoginAttempts: (retryAfterSeconds: number) =>
    new RestError(
      'too_many_login_attempts',
      'Too many failed login attempts. Please try again later.',
      429,
      {},
      {},
      {
        'Retry-After': String(retryAfterSeconds),
      },
    ),
  tooManyRequests: (retryAfterSeconds: number) =>
    new RestError(
      'rest_too_many_requests',
      'Too many requests. Please try again later.',
      429,
      {},
      {},
      {
        'Retry-After': String(retryAfterSeconds),
      },
    ),

  // Concurrency (db/group-commit.ts): a valid write that kept meeting concurrent writes.
  writeConflict: () =>
    new RestError(
      'rest_write_conflict',
      'The write met too many concurrent writes. Please try again.',
      503,
      {},
      {},
      { 'Retry-After': '1' },
    ),

  // Events (common.md 4.5)
  eventNotFound: (id: number) => e('rest-event-not-found', `Event with ID ${id} does not exist.`, 404),
  invalidEventId: () => e('rest-invalid-event-id', 'The specified ID is not a valid event.', 400),
  eventNoLongerAvailable: () => e('event-no-longer-available', 'This event is no longer available', 403),
  eventNotAccessible: () => e('event-not-accessible', 'The requested event is not accessible', 403),
  eventPasswordProtected: () =>
    e('event-password-protected', 'The requested event is not accessible without a password', 403),
  eventIsInTrash: () => e('event-is-in-trash', 'The event is already trashed', 410),
  eventArchivePageNotFound: () =>
    e('event-archive-page-not-found', 'The requested event archive page does not exist', 404),
  /** A feed address naming no published event, or no category or tag (feeds.ts). */
  feedNotFound: () => e('rest_feed_not_found', 'No published event, category or tag has this feed address.', 404),
  eventTicketsNotActive: () => e('event-tickets-not-active', 'Event Tickets plugin is not activated.', 400),
  eventSeriesTooLong: (limit: number) =>
    e(
      'rest-event-series-too-long',
      `The recurrence would create more than ${limit} occurrences (the series_max_occurrences setting): give it a COUNT or an UNTIL.`,
      400,
    ),
  invalidLinkedPostId: () => e('invalid-linked-post-id', 'The provided linked post ID is not valid', 400),

  // Venues and organizers (common.md 4.5): one factory per kind, named after the wire codes.
  linkedArchivePageNotFound: (kind: 'venue' | 'organizer') =>
    e(`${kind}-archive-page-not-found`, `The requested ${kind} archive page does not exist`, 404),
  linkedNotAccessible: (kind: 'venue' | 'organizer') =>
    e(`${kind}-not-accessible`, `The requested ${kind} is not accessible`, 403),
  linkedIsInTrash: (kind: 'venue' | 'organizer') => e(`${kind}-is-in-trash`, `The ${kind} is already trashed`, 410),
  couldNotCreateLinked: (kind: 'venue' | 'organizer') =>
    e(`could-not-create-${kind}`, `The ${kind} could not be created from the provided data`, 400),
  /** Internal: the record vanished between two steps of one request; no status given, so 500 with `data: null` (8). */
  linkedNotFound: (kind: 'venue' | 'organizer') =>
    e(`${kind}-not-found`, `The requested post ID does not exist or is not an ${kind}`, 500, null),

  // Changes feed (docs/api.md "Staying in sync")
  syncTokenExpired: () =>
    e(
      'sync_token_expired',
      'The sync token is older than the changes kept: read every list again, then start from a new token.',
      410,
    ),

  // Webhooks (docs/api.md "Webhooks")
  webhookNotFound: (id: number) => e('rest_webhook_not_found', `Webhook with ID ${id} does not exist.`, 404),
  webhookDeliveryNotFound: (id: number) =>
    e('rest_webhook_delivery_not_found', `Webhook delivery with ID ${id} does not exist.`, 404),

  // Terms (common.md 4.6, terms.md)
  termExists: (hierarchical: boolean, termId: number) =>
    new RestError(
      'term_exists',
      hierarchical
        ? 'A term with the name provided already exists with this parent.'
        : 'A term with the name provided already exists in this taxonomy.',
      400,
      { term_id: termId },
      // WordPress attaches the ID twice; the earlier copy surfaces as `additional_data` (terms.md 5.3).
      { additional_data: [termId, termId] },
    ),
  taxonomyNotHierarchical: () =>
    e('rest_taxonomy_not_hierarchical', 'Cannot set parent term, taxonomy is not hierarchical.', 400),
  duplicateTermSlug: (slug: string) =>
    e('duplicate_term_slug', `The slug &#8220;${slug}&#8221; is already in use by another term.`, 400),
  emptyTermName: () => e('empty_term_name', 'A name is required for this term.', 400),
  importSourceMissing: () =>
    e(
      'rest_import_no_source',
      'Send the calendar as the request body (Content-Type: text/calendar), as content, or its address as url.',
      400,
    ),
  importSourceTwice: () => e('rest_import_two_sources', 'Send either content or url, not both.', 400),
  icsInvalid: (message: string, line: number) =>
    e('rest_ics_invalid', `The calendar is not valid iCalendar: ${message}`, 400, { line }),
  importSourceUnreadable: (message: string) => e('rest_import_source_unreadable', message, 400),
} as const;

/**
 * What `/healthz` answers when the service cannot serve everything (app.ts): for monitors and load
 * balancers, `{status, code, message, since}` rather than the WordPress shape, `status` naming the
 * problem and `code` the driver's (docs/operations.md "Database outages and faults").
 */
export class HealthError extends RestError {
  constructor(
    status: string,
    message: string,
    readonly details: { code?: string; since?: string },
    headers: Record<string, string> = {},
  ) {
    super(status, message, 503, {}, {}, headers);
  }

  override get body(): Record<string, unknown> {
    const { code, since } = this.details;
    return {
      status: this.code,
      ...(code === undefined ? {} : { code }),
      message: this.message,
      ...(since === undefined ? {} : { since }),
    };
  }
}

/** The driver's own message stays in the log. */
const HEALTH_MESSAGES: Record<DatabaseFaultKind, string> = {
  unavailable: 'The database cannot be reached.',
  storage_full: 'Writes fail: the database has no room left.',
  write_failed: 'Writes fail: the database refuses or cannot complete them.',
};

export const healthErrors = {
  /** A read failed; `code` is the driver's, when it gave one. */
  databaseUnavailable: (code: string | undefined) =>
    new HealthError(
      'database_unavailable',
      HEALTH_MESSAGES.unavailable,
      { code },
      {
        'Retry-After': String(RETRY_AFTER_SECONDS),
      },
    ),
  /** The last write failed for want of storage, and none has succeeded since (db/faults.ts `WriteHealth`). */
  writesFailing: (failure: WriteFailure) =>
    new HealthError('writes_failing', HEALTH_MESSAGES[failure.kind], {
      code: failure.code,
      since: failure.since.toISOString(),
    }),
} as const;

/** `GET /metrics` (app.ts, `METRICS_TOKEN`). */
export const metricsErrors = {
  unauthorized: () =>
    new RestError(
      'metrics_unauthorized',
      'The metrics need a valid bearer token.',
      401,
      {},
      {},
      {
        'WWW-Authenticate': 'Bearer realm="metrics"',
      },
    ),
} as const;

/** A plain validator rejection, rendered as `Invalid parameter.` (common.md 4.4). */
export const invalidParameter: ParamFailure = { message: 'Invalid parameter.' };

/** A type-check failure: `<name> is not of type <type>.` with a `rest_invalid_type` detail. */
export function typeFailure(name: string, type: string): ParamFailure {
  const message = `${name} is not of type ${type}.`;
  return { message, error: { code: 'rest_invalid_type', message, data: { param: name } } };
}

/** A validator that failed with a coded error (e.g. `event-tickets-not-active`). */
export function errorFailure(error: RestError): ParamFailure {
  return { message: error.message, error: error.body as ParamFailure['error'] };
}

/**
 * Why a validator refused a value, beyond TEC's bare `Invalid parameter.`: a stable code and a
 * sentence naming the value and what would work, rendered as `data.details.{name}`
 * (docs/api.md "Why a parameter was refused"). `data.params.{name}` keeps TEC's wording, which clients match on.
 */
export class ParamReason {
  constructor(
    readonly code: string,
    /** Follows `{name}: ` in the message. */
    readonly reason: string,
  ) {}
}

/** The value as JSON, cut so that a hostile value cannot swell the answer. */
function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  if (text.length <= 62) return text;
  return `${text.slice(0, 61)}…${text.startsWith('"') ? '"' : ''}`;
}

const article = (noun: string) => (/^[aeiou]/.test(noun) ? 'an' : 'a');

/** Every detail code and its sentence; `/doc` lists the codes from `PARAM_REASON_CODES`. */
export const paramReasons = {
  invalidDate: (value: unknown) =>
    new ParamReason(
      'invalid_date',
      `${shown(value)} is not a date the service can read (try 2027-12-31 18:00 or an ISO 8601 time)`,
    ),
  invalidRecurrence: (problem: string) => new ParamReason('invalid_recurrence', problem),
  unknownTimezone: (value: unknown) =>
    new ParamReason(
      'unknown_timezone',
      `${shown(value)} is not a time zone the service knows (try an IANA name such as Europe/Paris, UTC, or an offset such as UTC+2; empty for the site time zone)`,
    ),
  emptyValue: (value: unknown) =>
    new ParamReason('empty_value', `${shown(value)} is empty (send a non-empty text; "0" counts as empty)`),
  notAString: (value: unknown) => new ParamReason('not_a_string', `${shown(value)} is not a text (send a string)`),
  notAnInteger: (value: unknown) =>
    new ParamReason('not_an_integer', `${shown(value)} is not a whole number (send 1 or more)`),
  notPositive: (value: unknown) =>
    new ParamReason('not_positive', `${shown(value)} is less than 1 (pages and page sizes start at 1)`),
  notAWebhookUrl: (value: unknown) =>
    new ParamReason('not_a_webhook_url', `${shown(value)} is not an http or https URL`),
  unknownWebhookEvents: (value: unknown) =>
    new ParamReason(
      'unknown_webhook_events',
      `${shown(value)} names no event type or an unknown one (send e.g. event.created,venue.*; types: event, venue, organizer, category, tag; actions: created, updated, trashed, restored, deleted, *)`,
    ),
  notASyncToken: (value: unknown) =>
    new ParamReason(
      'not_a_sync_token',
      `${shown(value)} is not a token of this feed (send next_since of a /changes answer)`,
    ),
  /** `acceptsData`: the argument also takes record data objects (event writes, not filters). */
  notAnId: (kind: 'venue' | 'organizer', value: unknown, acceptsData: boolean) =>
    new ParamReason(
      'not_an_id',
      `${shown(value)} is not ${article(kind)} ${kind} ID (send an ID such as 12, ${
        acceptsData
          ? `a list or comma-separated string of IDs, or ${kind} data as an object`
          : 'or a list or comma-separated string of IDs'
      })`,
    ),
  unknownLinked: (kind: 'venue' | 'organizer', id: number) =>
    new ParamReason(`unknown_${kind}`, `${id} is not the ID of ${article(kind)} ${kind} (GET /${kind}s lists them)`),
  /** Inline record data on an event write that `POST /venues` or `/organizers` would refuse. */
  invalidLinkedData: (kind: 'venue' | 'organizer', field: string) =>
    new ParamReason(
      `invalid_${kind}_data`,
      `the ${kind} data has no valid ${field} (the rules of POST /${kind}s apply)`,
    ),
} as const;

/** The detail codes, with `rest_invalid_type` of the type check, as `/doc` lists them. */
export const PARAM_REASON_CODES = [
  'invalid_date',
  'unknown_timezone',
  'invalid_recurrence',
  'empty_value',
  'not_a_string',
  'not_an_integer',
  'not_positive',
  'not_an_id',
  'not_a_sync_token',
  'not_a_webhook_url',
  'unknown_webhook_events',
  'unknown_venue',
  'unknown_organizer',
  'invalid_venue_data',
  'invalid_organizer_data',
  'rest_invalid_type',
] as const;

export function reasonFailure(name: string, reason: ParamReason): ParamFailure {
  return {
    ...invalidParameter,
    error: { code: reason.code, message: `${name}: ${reason.reason}`, data: { param: name } },
  };
}
