import { txtStrings } from '../dns-records';

/**
 * A DNS resolver in mailauth's shape answering TXT queries from the records given (as a DNS
 * server would: each record split into strings of 255), and ENOTFOUND for the rest.
 */
export function txtResolver(records: ReadonlyMap<string, string>) {
  return async (name: string, rrtype: string): Promise<string[][]> => {
    const txt = rrtype === 'TXT' ? records.get(name.toLowerCase()) : undefined;
    if (txt === undefined) throw Object.assign(new Error(`no ${rrtype} record for ${name}`), { code: 'ENOTFOUND' });
    return [txtStrings(txt)];
  };
}
