/**
 * The shape of an iCalendar file (RFC 5545 3.1, 3.4, 3.6) checked line by line before it is
 * parsed: the parser reads what it can of a broken file without a word, while an import must
 * refuse one and say where it breaks. Also finds each VEVENT's first line, to name it in reports.
 */

/** A file that is not iCalendar, or breaks its grammar: `line` is 1-based, as editors count. */
export class IcsSyntaxError extends Error {
  constructor(
    readonly line: number,
    detail: string,
  ) {
    super(`line ${line}: ${detail}`);
  }
}

/** Where a VEVENT begins, and what the file says of it that the parser merges away. */
export interface EventSpan {
  line: number;
  uid: string | undefined;
  /** Carries RECURRENCE-ID: a changed occurrence of a recurring event. */
  occurrence: boolean;
}

/** `NAME;PARAM=value,"quoted":value` (RFC 5545 3.1): the name, then parameters, then the value. */
const CONTENT_LINE = /^([A-Za-z0-9-]+)((?:;[A-Za-z0-9-]+=(?:"[^"]*"|[^";:,]*)(?:,(?:"[^"]*"|[^";:,]*))*)*):(.*)$/s;

/** DATE or DATE-TIME values (RFC 5545 3.3.4, 3.3.5), the only ones these properties take here. */
const DATE_VALUE = /^\d{8}(T\d{6}Z?)?$/;
const DATED = new Set(['DTSTART', 'DTEND', 'RECURRENCE-ID']);

interface LogicalLine {
  line: number;
  text: string;
}

/** Folded lines joined (RFC 5545 3.1: a line starting with a space or tab continues the one before). */
function unfold(text: string): LogicalLine[] {
  const out: LogicalLine[] = [];
  text.split(/\r\n|\n|\r/).forEach((physical, index) => {
    const last = out.at(-1);
    if ((physical.startsWith(' ') || physical.startsWith('\t')) && last) last.text += physical.slice(1);
    else out.push({ line: index + 1, text: physical });
  });
  return out.filter((l) => l.text.trim() !== '');
}

/** Checks the whole file; returns its VEVENTs in order. Throws IcsSyntaxError at the first fault. */
export function checkIcsStructure(text: string): EventSpan[] {
  const lines = unfold(text.replace(/^\uFEFF/, ''));
  if (!lines.length) throw new IcsSyntaxError(1, 'the file is empty');
  if (lines[0]!.text.trim().toUpperCase() !== 'BEGIN:VCALENDAR')
    throw new IcsSyntaxError(lines[0]!.line, 'an iCalendar file starts with BEGIN:VCALENDAR');
  const open: { name: string; line: number }[] = [];
  const events: EventSpan[] = [];
  let ended = false;
  for (const { line, text: content } of lines) {
    if (ended) throw new IcsSyntaxError(line, 'text after END:VCALENDAR');
    const match = CONTENT_LINE.exec(content);
    if (!match)
      throw new IcsSyntaxError(line, `not a property line (NAME:value): ${JSON.stringify(content.slice(0, 60))}`);
    const name = match[1]!.toUpperCase();
    const value = match[3]!.trim();
    if (name === 'BEGIN') {
      open.push({ name: value.toUpperCase(), line });
      if (value.toUpperCase() === 'VEVENT') events.push({ line, uid: undefined, occurrence: false });
      continue;
    }
    if (name === 'END') {
      const top = open.pop();
      if (!top || top.name !== value.toUpperCase())
        throw new IcsSyntaxError(
          line,
          `END:${value} does not close ${top ? `BEGIN:${top.name} of line ${top.line}` : 'anything'}`,
        );
      ended = open.length === 0;
      continue;
    }
    const inEvent = open.at(-1)?.name === 'VEVENT';
    if (!inEvent) continue;
    const event = events.at(-1)!;
    if (name === 'UID') event.uid = value;
    if (name === 'RECURRENCE-ID') event.occurrence = true;
    if (DATED.has(name) && !DATE_VALUE.test(value))
      throw new IcsSyntaxError(
        line,
        `${name} ${JSON.stringify(value)} is not a date (YYYYMMDD) or date-time (YYYYMMDDTHHMMSS)`,
      );
  }
  const unclosed = open.at(-1);
  if (unclosed)
    throw new IcsSyntaxError(
      lines.at(-1)!.line,
      `the file ends before END:${unclosed.name} (BEGIN:${unclosed.name} is on line ${unclosed.line}); is it cut short?`,
    );
  return events;
}
