/** The error codes node's dns module gives, which mailauth tells apart (ENOTFOUND and ENODATA: no record; the rest: temperror). */
export type DnsErrorCode = 'ENOTFOUND' | 'ENODATA' | 'ETIMEOUT' | 'ESERVFAIL' | 'EREFUSED' | 'EFORMERR' | 'ENOTIMP' | 'EBADRESP' | 'EBADNAME' | 'ECONNREFUSED';

export interface DnsError extends Error {
  code: DnsErrorCode;
  syscall: string;
  hostname: string;
}

/** An error shaped like node's (`queryTxt ENOTFOUND example.com`), so callers written for dns.promises work unchanged. */
export function dnsError(code: DnsErrorCode, type: string, hostname: string): DnsError {
  const syscall = `query${type.charAt(0)}${type.slice(1).toLowerCase()}`;
  return Object.assign(new Error(`${syscall} ${code} ${hostname}`), { code, syscall, hostname });
}

export const isDnsError = (error: unknown): error is DnsError => error instanceof Error && typeof (error as Partial<DnsError>).syscall === 'string';
