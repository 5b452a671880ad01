import { useTranslation } from 'react-i18next';
import type { Address, MailAuthentication } from '../api/types';

interface Props {
  authentication: MailAuthentication | null;
  from: Address;
}

/** The domain the verdict speaks for: the one checked, else the From address's own. */
const senderDomain = (authentication: MailAuthentication, from: Address) => authentication.fromDomain ?? from.address.split('@').pop() ?? '';

/** A small ✓ beside the sender when DMARC passed for the From domain; nothing otherwise. */
export function VerifiedMark({ authentication, from }: Props) {
  const { t } = useTranslation();
  if (authentication?.sender !== 'verified') return null;
  const label = t('reader.verifiedSender', { domain: senderDomain(authentication, from) });
  return (
    <span className="verified-mark" role="img" aria-label={label} title={label}>
      ✓
    </span>
  );
}

/**
 * A warning above the mail when its From cannot be believed: a colleague's address on mail that came from outside
 * (stored in Spam by the ingest), or a sender whose domain's DMARC check failed. Unchecked, unproven and local mail
 * show nothing: most of the internet's mail proves nothing either way, and a warning on all of it would teach
 * readers to ignore the ones that matter.
 */
export function SenderWarning({ authentication, from }: Props) {
  const { t } = useTranslation();
  const sender = authentication?.sender;
  if (sender === 'forged-colleague') {
    return (
      <p className="sender-warning forged" role="alert">
        {t('reader.forgedColleague', { address: from.address })}
      </p>
    );
  }
  if (sender === 'failed') {
    return (
      <p className="sender-warning failed" role="alert">
        {t('reader.failedChecks', { address: from.address })}
      </p>
    );
  }
  return null;
}
