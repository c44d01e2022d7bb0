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

const DAY_MS = 86_400_000;
/** 0000-01-01T00:00:00.000Z and 10000-01-01T00:00:00.000Z: the instants `toISOString` writes with a 4-digit year. */
const FOUR_DIGIT_YEARS_FROM = -62_167_219_200_000;
const FOUR_DIGIT_YEARS_TO = 253_402_300_800_000;
/** Character codes: `0`, `-`, `T`, `:`, `.`, `Z`. */
const ZERO = 48;
const [DASH, T, COLON, DOT, Z] = [45, 84, 58, 46, 90];

/**
 * `date.toISOString()`, character for character, written from the time value with integer arithmetic as one string of
 * 24 character codes (V8's own formatter costs about three times as much, and every date of every row served passes
 * through here; joining pieces would leave a dozen intermediate strings per date for the garbage collector). Outside
 * the years 0000-9999 and for an invalid date it is `toISOString` itself (the six-digit form; RangeError).
 */
export function isoText(date: Date): string {
  const time = date.getTime();
  if (!(time >= FOUR_DIGIT_YEARS_FROM && time < FOUR_DIGIT_YEARS_TO)) return date.toISOString();
  const days = Math.floor(time / DAY_MS);
  let ms = time - days * DAY_MS;
  // The civil date of a day count since 1970-01-01, in 400-year eras that start on a 1 March.
  const fromEra0 = days + 719_468;
  const era = Math.floor(fromEra0 / 146_097);
  const dayOfEra = fromEra0 - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const marchMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * marchMonth + 2) / 5) + 1;
  const month = marchMonth < 10 ? marchMonth + 3 : marchMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(ms / 3_600_000);
  ms -= hour * 3_600_000;
  const minute = Math.floor(ms / 60_000);
  ms -= minute * 60_000;
  const second = Math.floor(ms / 1000);
  ms -= second * 1000;
  return String.fromCharCode(
    ZERO + Math.floor(year / 1000),
    ZERO + (Math.floor(year / 100) % 10),
    ZERO + (Math.floor(year / 10) % 10),
    ZERO + (year % 10),
    DASH,
    ZERO + Math.floor(month / 10),
    ZERO + (month % 10),
    DASH,
    ZERO + Math.floor(day / 10),
    ZERO + (day % 10),
    T,
    ZERO + Math.floor(hour / 10),
    ZERO + (hour % 10),
    COLON,
    ZERO + Math.floor(minute / 10),
    ZERO + (minute % 10),
    COLON,
    ZERO + Math.floor(second / 10),
    ZERO + (second % 10),
    DOT,
    ZERO + Math.floor(ms / 100),
    ZERO + (Math.floor(ms / 10) % 10),
    ZERO + (ms % 10),
    Z,
  );
}
