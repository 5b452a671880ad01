import { ImapCommandError } from './tokens';

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const DATE = /^(\d{1,2})-([A-Za-z]{3})-(\d{4})$/;

/** A calendar day as IMAP's date gives it (`1-Feb-1994`), as `YYYY-MM-DD`: SEARCH compares days, not instants. */
export function parseImapDate(text: string): string {
  const match = DATE.exec(text);
  const month = match ? MONTHS.findIndex((name) => name.toLowerCase() === match[2].toLowerCase()) : -1;
  if (!match || month === -1) throw new ImapCommandError(`expected a date such as 1-Feb-1994, got ${text}`);
  const day = Number(match[1]);
  const date = new Date(Date.UTC(Number(match[3]), month, day));
  if (date.getUTCDate() !== day) throw new ImapCommandError(`no such day: ${text}`);
  return date.toISOString().slice(0, 10);
}

/** `"17-Jul-1996 02:44:25 +0000"`: INTERNALDATE's date-time, in UTC. */
export function formatImapDateTime(date: Date): string {
  const pad = (number: number) => String(number).padStart(2, '0');
  const day = String(date.getUTCDate()).padStart(2, ' ');
  const time = `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}`;
  return `"${day}-${MONTHS[date.getUTCMonth()]}-${date.getUTCFullYear()} ${time} +0000"`;
}

const DATE_TIME = /^ ?(\d{1,2})-([A-Za-z]{3})-(\d{4}) (\d{2}):(\d{2}):(\d{2}) ([+-])(\d{2})(\d{2})$/;

/** APPEND's date-time (`" 7-Jul-1996 02:44:25 -0700"`) as the instant it names. */
export function parseImapDateTime(text: string): Date {
  const match = DATE_TIME.exec(text);
  const month = match ? MONTHS.findIndex((name) => name.toLowerCase() === match[2].toLowerCase()) : -1;
  if (!match || month === -1) throw new ImapCommandError(`expected a date-time such as "7-Jul-1996 02:44:25 -0700", got ${text}`);
  const [day, year, hours, minutes, seconds, zoneHours, zoneMinutes] = [1, 3, 4, 5, 6, 8, 9].map((index) => Number(match[index]));
  const offset = (match[7] === '-' ? -1 : 1) * (zoneHours * 60 + zoneMinutes);
  const date = new Date(Date.UTC(year, month, day, hours, minutes - offset, seconds));
  if (new Date(Date.UTC(year, month, day)).getUTCDate() !== day || hours > 23 || minutes > 59 || seconds > 60)
    throw new ImapCommandError(`no such time: ${text}`);
  return date;
}
