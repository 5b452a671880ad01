import type { AnswerMode, MailDetail } from '../api/types';
import { i18next } from '../i18n/i18n';
import { formatAddress, formatAddresses, formatFullDate } from '../shared/format';
import { emptyDraft, splitAddresses, type Draft } from './draft';

const PREFIX: Record<AnswerMode, string> = { reply: 'Re:', replyAll: 'Re:', forward: 'Fwd:' };
const PREFIXED: Record<AnswerMode, RegExp> = { reply: /^\s*re\s*:/i, replyAll: /^\s*re\s*:/i, forward: /^\s*fwd?\s*:/i };

/**
 * A reply, reply all or forward of an open mail, as the compose window starts it: the
 * recipients and subject filled in (the user may change them), the original quoted
 * below, where the identity's signature goes above it once the identity is chosen (Compose). The send API adds
 * In-Reply-To, References and a forward's attachments itself.
 */
export function answerDraft(mail: MailDetail, mode: AnswerMode, self: string): Draft {
  const me = self.toLowerCase();
  const subject = PREFIXED[mode].test(mail.subject) ? mail.subject : `${PREFIX[mode]} ${mail.subject}`.trimEnd();
  const replyTo = mail.headers.filter((header) => header.name.toLowerCase() === 'reply-to').flatMap((header) => splitAddresses(header.value).map(plainAddress));
  const author = replyTo.length > 0 ? replyTo : [mail.from.address];
  const fromMe = mail.from.address.toLowerCase() === me;
  const to = fromMe ? mail.to.map((address) => address.address) : author;
  const others = (addresses: MailDetail['to']) => addresses.map((address) => address.address).filter((address) => address.toLowerCase() !== me);
  const recipients =
    mode === 'forward'
      ? { to: '', cc: '' }
      : mode === 'reply'
        ? { to: to.join(', '), cc: '' }
        : {
            to: unique([...to, ...others(mail.to)]).join(', '),
            cc: unique(others(mail.cc))
              .filter((address) => !to.includes(address))
              .join(', '),
          };
  const header =
    mode === 'forward' ? forwardedHeader(mail) : i18next.t('compose.quoteHeader', { date: formatFullDate(mail.receivedAt), sender: formatAddress(mail.from) });
  return {
    ...emptyDraft(),
    ...recipients,
    subject,
    rich: false,
    text: `\n\n${header}\n${quote(mail.text, mode)}`,
    original: { mailId: mail.id, mode },
    choosingFrom: { addressedTo: [...mail.to, ...mail.cc, mail.from].map((address) => address.address) },
    // The signature goes above the quote, whose first line is the header.
    signature: { inserted: '', before: header.split('\n')[0] },
  };
}

function forwardedHeader(mail: MailDetail): string {
  return [
    i18next.t('compose.forwardedHeader'),
    i18next.t('compose.forwardedFrom', { value: formatAddress(mail.from) }),
    i18next.t('compose.forwardedDate', { value: formatFullDate(mail.receivedAt) }),
    i18next.t('compose.forwardedSubject', { value: mail.subject }),
    i18next.t('compose.forwardedTo', { value: formatAddresses(mail.to) }),
    '',
  ].join('\n');
}

function quote(text: string, mode: AnswerMode): string {
  if (mode === 'forward') return text;
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

const unique = (values: string[]) => [...new Set(values)];

/** The address of "Name <address>", or the value itself. */
function plainAddress(value: string): string {
  return /<([^<>]+)>/.exec(value)?.[1].trim() ?? value.trim();
}
