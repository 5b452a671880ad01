/** What IMAP shows of a mail's state, as stored (libs/imap names them \Seen, $Forwarded...). */
export interface ImapMessageFlags {
  seen: boolean;
  flagged: boolean;
  answered: boolean;
  forwarded: boolean;
  /** \Deleted: marked for the next EXPUNGE. */
  deleted: boolean;
  /** \Draft: the mail is in Drafts. */
  draft: boolean;
  keywords: string[];
}

/** The SQL that reads ImapMessageFlags from `mails m` joined with its `mailboxes b`. */
export const FLAG_COLUMNS = `m.seen, m.flagged, m.answered, m.forwarded, m.marked_deleted AS deleted, b.role = 'drafts' AS draft, m.keywords`;

export interface FlagRow {
  seen: boolean;
  flagged: boolean;
  answered: boolean;
  forwarded: boolean;
  deleted: boolean;
  draft: boolean;
  keywords: string[];
}

export const flagsOf = (row: FlagRow): ImapMessageFlags => ({
  seen: row.seen,
  flagged: row.flagged,
  answered: row.answered,
  forwarded: row.forwarded,
  deleted: row.deleted,
  draft: row.draft,
  keywords: row.keywords,
});
