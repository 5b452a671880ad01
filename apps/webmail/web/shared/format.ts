import type { Address } from '../api/types';
import { currentLanguage, i18next } from '../i18n/i18n';

const number = (value: number, fractionDigits: number) =>
  value.toLocaleString(currentLanguage(), { minimumFractionDigits: fractionDigits, maximumFractionDigits: fractionDigits });

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
  return sameDay
    ? date.toLocaleTimeString(currentLanguage(), { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString(currentLanguage(), { year: date.getFullYear() === now.getFullYear() ? undefined : 'numeric', month: 'short', day: 'numeric' });
}

export const formatFullDate = (iso: string) => new Date(iso).toLocaleString(currentLanguage(), { dateStyle: 'medium', timeStyle: 'short' });

export const formatTime = (iso: string) => new Date(iso).toLocaleTimeString(currentLanguage());

export const formatDateTime = (iso: string) => new Date(iso).toLocaleString(currentLanguage());

/** Incoming mail without a From address is stored too: its sender is empty. */
export const displayName = (address: Address) => address.name || address.address || i18next.t('common.unknownSender');

export const formatAddress = (address: Address) => (address.name && address.address ? `${address.name} <${address.address}>` : displayName(address));

export const formatAddresses = (addresses: Address[]) => addresses.map(formatAddress).join(', ');
