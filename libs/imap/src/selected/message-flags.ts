import type { ImapMessageFlags } from '@letterbox/mail';

/** The flags every mailbox shows (RFC 3501 2.3.2), $Forwarded being the webmail's forwarded mark. */
export const SYSTEM_FLAGS = ['\\Answered', '\\Flagged', '\\Deleted', '\\Seen', '\\Draft', '$Forwarded'];

/** What a client may set: all but \Draft, which is where the mail is (Drafts), and any keyword (`\*`). */
export const PERMANENT_FLAGS = ['\\Answered', '\\Flagged', '\\Deleted', '\\Seen', '$Forwarded', '\\*'];

/** `(\Seen \Flagged Work)`: a message's flags as FETCH FLAGS writes them. */
export function flagList(flags: ImapMessageFlags): string {
  const names = [
    ...(flags.seen ? ['\\Seen'] : []),
    ...(flags.answered ? ['\\Answered'] : []),
    ...(flags.flagged ? ['\\Flagged'] : []),
    ...(flags.deleted ? ['\\Deleted'] : []),
    ...(flags.draft ? ['\\Draft'] : []),
    ...(flags.forwarded ? ['$Forwarded'] : []),
    ...flags.keywords,
  ];
  return `(${names.join(' ')})`;
}
