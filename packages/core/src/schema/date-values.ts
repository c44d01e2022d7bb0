/**
 * Date and date-time values as every supported database can store and compare them: ISO 8601 text, a real calendar
 * date, and a year from 1000 to 9999 in UTC (MySQL's DATETIME range; SQLite compares dates as text).
 */

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME = /^(\d{4})-(\d{2})-(\d{2})([T ](\d{2}):(\d{2})(:(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const MIN_YEAR = 1000;
const MAX_YEAR = 9999;

export const DATE_RANGE_HINT = `from ${MIN_YEAR}-01-01 to ${MAX_YEAR}-12-31`;

/** A `YYYY-MM-DD` calendar date in range, or undefined. */
export function readDate(text: unknown): string | undefined {
  if (typeof text !== 'string') return undefined;
  const match = DATE.exec(text);
  return match && validDay(match) ? text : undefined;
}

/** An ISO 8601 date-time (a bare date means midnight UTC) whose UTC instant is in range, or undefined. */
export function readDatetime(value: unknown): Date | undefined {
  if (value instanceof Date) return inRange(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const match = DATETIME.exec(value);
  if (!match || !validDay(match)) return undefined;
  const date = new Date(match[4] ? value : `${value}T00:00:00Z`);
  return inRange(date) ? date : undefined;
}

function inRange(date: Date): boolean {
  const year = date.getUTCFullYear();
  return !isNaN(date.getTime()) && year >= MIN_YEAR && year <= MAX_YEAR;
}

function validDay(match: RegExpExecArray): boolean {
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (year < MIN_YEAR || month < 1 || month > 12 || day < 1) return false;
  // Month lengths repeat every 400 years; 2000 + year % 400 keeps Date.UTC away from its two-digit-year quirk.
  return day <= new Date(Date.UTC(2000 + (year % 400), month, 0)).getUTCDate();
}
