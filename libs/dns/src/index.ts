export { CachingDnsResolver, type CachingDnsResolverOptions } from './caching-dns-resolver';
export { dnsConfig } from './dns-settings';
export type { DnsAnswers, DnsRecordType, DnsResolve, MxRecord } from './dns-answers';
export type { DnsError, DnsErrorCode } from './dns-error';
export { serveDns, type DnsServer, type DnsServerOptions } from './dns-server';
export { UNANSWERED, type DnsRecord, type DnsRecordSource } from './dns-record-source';
