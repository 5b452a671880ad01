import libmime from 'libmime';
import type { AuthenticateResult } from 'mailauth';
import type { AuthResult, MailAuthentication } from './mail-authentication';

const WORDS = new Set<string>(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy']);
/** Which DKIM result stands for a message with several signatures, when none passes: the most telling first. */
const DKIM_RANK: AuthResult[] = ['pass', 'fail', 'policy', 'permerror', 'temperror', 'neutral', 'softfail', 'none'];

export interface MailResults {
  results: Pick<MailAuthentication, 'spf' | 'dkim' | 'dmarc' | 'arc'>;
  /** The DMARC policy of the From domain (its `sp` for a subdomain), when it publishes one. */
  dmarcPolicy?: string;
  /** Received-SPF (when SPF was checked) and Authentication-Results, each ending in CRLF. */
  headers: string;
}

/**
 * mailauth's results as RFC 8601 result words, and the trace fields that say them under
 * `authservId`. Without the client's address (`spfChecked` false: an HTTP gateway that did
 * not give it) SPF could not be checked, whatever mailauth made of it: `spf=none`.
 */
export function mailResults(result: AuthenticateResult, spfChecked: boolean, authservId: string): MailResults {
  const signatures = result.dkim?.results ?? [];
  const dkim = signatures.map((signature) => word(signature.status?.result));
  const spf = spfChecked && result.spf ? result.spf : undefined;
  const clauses = [
    ...signatures.map((signature) => signature.info),
    spf ? spf.info : 'spf=none (no client address given)',
    result.arc ? result.arc.info : undefined,
    result.dmarc ? result.dmarc.info : undefined,
  ].filter((clause): clause is string => Boolean(clause));
  // Each clause folded by itself, as mailauth folds its own.
  const authenticationResults = `Authentication-Results: ${authservId};\r\n ${clauses.map((clause) => libmime.foldLines(clause, 160)).join(';\r\n ')}`;
  return {
    results: {
      spf: spf ? word(spf.status?.result) : 'none',
      dkim: dkim.length === 0 ? 'none' : (DKIM_RANK.find((rank) => dkim.includes(rank)) ?? 'neutral'),
      dmarc: result.dmarc ? word(result.dmarc.status?.result) : 'none',
      arc: result.arc ? word(result.arc.status?.result) : 'none',
    },
    dmarcPolicy: result.dmarc ? result.dmarc.policy : undefined,
    headers: `${spf?.header ? `${spf.header}\r\n` : ''}${authenticationResults}\r\n`,
  };
}

/** mailauth writes `temperr` at times and `skipped` for a check it did not make. */
function word(result: string | undefined): AuthResult {
  if (result === 'temperr') return 'temperror';
  return result && WORDS.has(result) ? (result as AuthResult) : 'none';
}
