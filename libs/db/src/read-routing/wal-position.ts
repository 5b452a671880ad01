/**
 * A WAL position as PostgreSQL writes it ('16/B374D848') in 16 hex digits, so that
 * positions compare as strings, in JavaScript and in a Redis script alike.
 */
export function sortableWalPosition(lsn: string): string {
  const [high, low] = lsn.toUpperCase().split('/');
  return high.padStart(8, '0') + low.padStart(8, '0');
}
