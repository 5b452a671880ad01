import addressparser from 'nodemailer/lib/addressparser';

/** Where the From header is looked for: a header block longer than this is no mail a test sends. */
const HEADER_MAX_BYTES = 64 * 1024;

/**
 * The account a mail is counted (and rate limited) against, as a provider does: the SMTP AUTH
 * user, else the address of the From header, else the envelope sender. Not the envelope sender
 * first: Letterbox sends each message from a bounce address of its own (VERP), which is no account.
 */
export function sendingAccount(user: string | undefined, raw: Buffer, envelopeFrom: string): string {
  if (user) return user;
  const head = raw.subarray(0, HEADER_MAX_BYTES).toString('latin1');
  const end = head.search(/\r?\n\r?\n/);
  const headers = (end === -1 ? head : head.slice(0, end)).replace(/\r?\n[ \t]+/g, ' ');
  const from = /^from:(.*)$/im.exec(headers)?.[1];
  const [first] = from ? addressparser(from, { flatten: true }) : [];
  return (first?.address || envelopeFrom).toLowerCase();
}
