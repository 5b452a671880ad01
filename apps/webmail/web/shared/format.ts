import type { Address } from '../api/types';

export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  if (bytes < 1024 * 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
  return `${(bytes / (1024 * 1024 * 1024)).toFixed(1)} GB`;
}

/** Today's mail by time, older mail by date. */
export function formatListDate(iso: string, now = new Date()): string {
  const date = new Date(iso);
  const sameDay = date.toDateString() === now.toDateString();
  return sameDay
    ? date.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' })
    : date.toLocaleDateString(undefined, { year: date.getFullYear() === now.getFullYear() ? undefined : 'numeric', month: 'short', day: 'numeric' });
}

export const formatFullDate = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** Incoming mail without a From address is stored too: its sender is empty. */
const UNKNOWN_SENDER = '(unknown sender)';

export const displayName = (address: Address) => address.name || address.address || UNKNOWN_SENDER;

export const formatAddress = (address: Address) => (address.name && address.address ? `${address.name} <${address.address}>` : displayName(address));

export const formatAddresses = (addresses: Address[]) => addresses.map(formatAddress).join(', ');
