export { CachingDnsResolver, type CachingDnsResolverOptions } from './caching-dns-resolver';
export { dnsConfig } from './dns-settings';
export { DNS_RECORD_TYPES, type DnsAnswers, type DnsRecordType, type DnsResolve, type MxRecord } from './dns-answers';
export type { DnsError, DnsErrorCode } from './dns-error';
export { serveDns, type DnsServer, type DnsServerOptions } from './dns-server';
export { UNANSWERED, type DnsRecord, type DnsRecordSource } from './dns-record-source';
