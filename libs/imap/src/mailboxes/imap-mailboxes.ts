import type { MailboxCounters, MailboxQueries } from '@letterbox/mail';

/** One of the user's mailboxes as IMAP shows it. */
export interface ImapMailbox {
  id: number;
  /** INBOX for the inbox (RFC 3501 names it so whatever its name in the webmail); the folder's name otherwise. */
  name: string;
  /** RFC 6154's attribute of a system folder. */
  specialUse?: '\\Sent' | '\\Drafts' | '\\Trash' | '\\Junk';
  messages: number;
  unseen: number;
}

/** Folders have no hierarchy in Letterbox; `/` is what clients expect to see. */
export const HIERARCHY_DELIMITER = '/';

const SPECIAL_USE: Record<string, ImapMailbox['specialUse']> = { sent: '\\Sent', drafts: '\\Drafts', trash: '\\Trash', spam: '\\Junk' };

/** The user's mailboxes IMAP shows: every folder but the locked ones, which stay hidden until unlocked in the webmail. */
export class ImapMailboxes {
  constructor(private readonly queries: Pick<MailboxQueries, 'counters'>) {}

  async visible(userId: number): Promise<ImapMailbox[]> {
    const counters = await this.queries.counters(userId);
    return counters
      .filter((mailbox) => !mailbox.locked)
      .sort((a, b) => roleRank(a.role) - roleRank(b.role) || a.name.localeCompare(b.name))
      .map(imapMailbox);
  }

  /** The visible mailbox of that name (INBOX in any case), or undefined. */
  async find(userId: number, name: string): Promise<ImapMailbox | undefined> {
    const wanted = name.toUpperCase() === 'INBOX' ? 'INBOX' : name;
    return (await this.visible(userId)).find((mailbox) => mailbox.name === wanted);
  }
}

/** The webmail's order: INBOX, the other system folders, then the user's by name. */
const ROLE_ORDER = ['inbox', 'sent', 'drafts', 'spam', 'trash'];
const roleRank = (role: string) => (ROLE_ORDER.includes(role) ? ROLE_ORDER.indexOf(role) : ROLE_ORDER.length);

function imapMailbox(mailbox: MailboxCounters): ImapMailbox {
  const specialUse = SPECIAL_USE[mailbox.role];
  return {
    id: mailbox.id,
    name: mailbox.role === 'inbox' ? 'INBOX' : mailbox.name,
    ...(specialUse ? { specialUse } : {}),
    messages: mailbox.totalCount,
    unseen: mailbox.unreadCount,
  };
}
