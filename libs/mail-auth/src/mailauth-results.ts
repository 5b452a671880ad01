import type { AuthenticateResult } from 'mailauth';
import type { AuthResult, MailAuthentication } from './mail-authentication';

const WORDS = new Set<string>(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy']);
/** Which DKIM result stands for a message with several signatures, when none passes: the most telling first. */
const DKIM_RANK: AuthResult[] = ['pass', 'fail', 'policy', 'permerror', 'temperror', 'neutral', 'softfail', 'none'];

/** mailauth's results as RFC 8601 result words, and the DMARC policy of the From domain. */
export function mailResults(
  result: AuthenticateResult,
  spfChecked: boolean,
): { results: Pick<MailAuthentication, 'spf' | 'dkim' | 'dmarc' | 'arc'>; dmarcPolicy?: string } {
  const dkim = (result.dkim?.results ?? []).map((signature) => word(signature.status?.result));
  const dmarc = result.dmarc ? word(result.dmarc.status?.result) : 'none';
  return {
    results: {
      spf: spfChecked && result.spf ? word(result.spf.status?.result) : 'none',
      dkim: dkim.length === 0 ? 'none' : (DKIM_RANK.find((rank) => dkim.includes(rank)) ?? 'neutral'),
      dmarc,
      arc: result.arc ? word(result.arc.status?.result) : 'none',
    },
    dmarcPolicy: result.dmarc ? result.dmarc.policy : undefined,
  };
}

/** mailauth writes `temperr` at times and `skipped` for a check it did not make. */
function word(result: string | undefined): AuthResult {
  if (result === 'temperr') return 'temperror';
  return result && WORDS.has(result) ? (result as AuthResult) : 'none';
}
