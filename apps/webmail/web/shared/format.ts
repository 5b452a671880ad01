import type { Address } from '../api/types';
import { currentLanguage, i18next } from '../i18n/i18n';

/*
 * Formatters made once per language and kind: `toLocaleString` with options builds a new one on every call,
 * which for the list's fifty dates was a good part of a phone's first render.
 */
const formatters = new Map<string, Intl.DateTimeFormat | Intl.NumberFormat>();

function dateFormat(kind: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `date ${currentLanguage()} ${kind}`;
  let format = formatters.get(key) as Intl.DateTimeFormat | undefined;
  if (!format) formatters.set(key, (format = new Intl.DateTimeFormat(currentLanguage(), options)));
  return format;
}

function number(value: number, fractionDigits: number): string {
  const key = `number ${currentLanguage()} ${fractionDigits}`;
  let format = formatters.get(key) as Intl.NumberFormat | undefined;
  if (!format) {
    format = new Intl.NumberFormat(currentLanguage(), { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits });
    formatters.set(key, format);
  }
  return format.format(value);
}

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${number(bytes, 0)} B`;
  if (bytes < 1024 * 1024) return `${number(bytes / 1024, bytes < 10 * 1024 ? 1 : 0)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${number(bytes / (1024 * 1024), 1)} MB`;
  return `${number(bytes / (1024 * 1024 * 1024), 1)} GB`;
}

/** Today's mail by time, older mail by date. */
export function formatListDate(iso: string, now = new Date()): string {
  const date = new Date(iso);
  const sameDay = date.toDateString() === now.toDateString();
  if (sameDay) return dateFormat('time', { hour: '2-digit', minute: '2-digit' }).format(date);
  return date.getFullYear() === now.getFullYear()
    ? dateFormat('day', { month: 'short', day: 'numeric' }).format(date)
    : dateFormat('day and year', { year: 'numeric', month: 'short', day: 'numeric' }).format(date);
}

export const formatFullDate = (iso: string) => dateFormat('full', { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

export const formatTime = (iso: string) => new Date(iso).toLocaleTimeString(currentLanguage());

export const formatDateTime = (iso: string) => new Date(iso).toLocaleString(currentLanguage());

/** Incoming mail without a From address is stored too: its sender is empty. */
export const displayName = (address: Address) => address.name || address.address || i18next.t('common.unknownSender');

export const formatAddress = (address: Address) => (address.name && address.address ? `${address.name} <${address.address}>` : displayName(address));

export const formatAddresses = (addresses: Address[]) => addresses.map(formatAddress).join(', ');
