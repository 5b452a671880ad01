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
