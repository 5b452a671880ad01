import type { Language } from './mail-template';

const DAY_MS = 86_400_000;
const ENGLISH_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

// Written out by hand rather than with toLocaleDateString: ICU updates change that output
// (e.g. its spaces), and a changed byte would break every test that rebuilds a mail.

export function formatDay(date: Date, language: Language): string {
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth() + 1;
  const day = date.getUTCDate();
  switch (language) {
    case 'en':
      return `${ENGLISH_MONTHS[month - 1]} ${day}, ${year}`;
    case 'ko':
      return `${year}년 ${month}월 ${day}일`;
    case 'ja':
      return `${year}年${month}月${day}日`;
  }
}

export function formatTime(date: Date): string {
  return `${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}`;
}

export function groupThousands(value: number): string {
  return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A time on the hour or half hour, `days` after `from`, inside office hours. */
export function meetingTime(from: Date, days: number, halfHours: number): Date {
  const day = Math.floor(from.getTime() / DAY_MS) + days;
  return new Date(day * DAY_MS + (9 * 60 + (halfHours % 18) * 30) * 60_000);
}

export function daysLater(from: Date, days: number): Date {
  return new Date(from.getTime() + days * DAY_MS);
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}
