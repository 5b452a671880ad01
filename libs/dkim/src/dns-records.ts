import type { DkimAlgorithm } from './dkim-key-pair';

/** A TXT record an office publishes in its domain's DNS. */
export interface TxtRecord {
  dnsName: string;
  txt: string;
}

export const dkimDnsName = (selector: string, domain: string) => `${selector}._domainkey.${domain}`;

export const dkimTxt = (algorithm: DkimAlgorithm, publicKey: string) => `v=DKIM1; k=${algorithm === 'rsa-sha256' ? 'rsa' : 'ed25519'}; p=${publicKey}`;

/** The hosts that may send the domain's mail (SPF_SENDERS), others soft-failing: DKIM and DMARC decide the rest. */
export const spfRecord = (domain: string, senders: string): TxtRecord => ({ dnsName: domain, txt: `v=spf1 ${senders} ~all` });

/**
 * Mail that fails DMARC for the domain goes to spam rather than being refused: a domain whose
 * other senders are not all signing yet loses no mail by publishing it.
 */
export const dmarcRecord = (domain: string): TxtRecord => ({ dnsName: `_dmarc.${domain}`, txt: 'v=DMARC1; p=quarantine; adkim=r; aspf=r' });

/** Strings of at most 255 characters, as a DNS TXT record carries a longer text (an RSA key's) and a reader joins them. */
export function txtStrings(txt: string): string[] {
  const strings: string[] = [];
  for (let start = 0; start < txt.length; start += 255) strings.push(txt.slice(start, start + 255));
  return strings;
}
