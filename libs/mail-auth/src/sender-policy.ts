import type { MailAction, MailAuthentication, SenderVerdict } from './mail-authentication';

/** What a DMARC p=reject failure gets: refused (RFC 7489 §6.6.2), or put in Spam when the operator prefers. */
export type DmarcRejectAs = 'refuse' | 'quarantine';

export interface PolicyInput {
  results: Pick<MailAuthentication, 'spf' | 'dkim' | 'dmarc' | 'arc'>;
  /** The policy the From domain publishes (or its `sp`, for a subdomain), when DMARC found one. */
  dmarcPolicy?: string;
  /** The From domain is one of Letterbox's own, and the mail came from outside. */
  claimsColleague: boolean;
  dmarcRejectAs: DmarcRejectAs;
}

/** The sender verdict the webmail shows. */
export function senderVerdict({ results, claimsColleague }: PolicyInput): SenderVerdict {
  if (claimsColleague) return 'forged-colleague';
  if (results.dmarc === 'pass') return 'verified';
  if (results.dmarc === 'fail') return 'failed';
  return 'unverified';
}

/**
 * Where the mail goes. Precedence: a p=reject failure is refused, before a forged colleague
 * goes to Spam (whatever the other checks say), before a p=quarantine failure goes there.
 */
export function mailAction(input: PolicyInput): MailAction {
  const failedPolicy = input.results.dmarc === 'fail' ? input.dmarcPolicy : undefined;
  if (failedPolicy === 'reject') {
    const reason = 'DMARC policy of the From domain is reject, and the message failed DMARC';
    return input.dmarcRejectAs === 'refuse' ? { action: 'reject', reason } : { action: 'spam', reason };
  }
  if (input.claimsColleague) return { action: 'spam', reason: 'From is an address of this organisation, but the message came from outside' };
  if (failedPolicy === 'quarantine') return { action: 'spam', reason: 'DMARC policy of the From domain is quarantine, and the message failed DMARC' };
  return { action: 'accept' };
}
