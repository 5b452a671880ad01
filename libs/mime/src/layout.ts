/**
 * Where a stored EML's pieces lie, found once when the mail is stored so that a read
 * touches only the bytes it shows. Offsets are byte offsets into the EML; `end` is
 * exclusive.
 */
export interface MailLayout {
  /** The top-level header block is [0, headerEnd). */
  headerEnd: number;
  /** text/plain and text/html parts meant to be shown, in message order. */
  bodies: BodyPartLayout[];
  /** Parts past MAX_PARTS, not recorded: only in the whole EML. Absent when none were. */
  omittedParts?: number;
}

export interface BodyPartLayout {
  partId: string;
  contentType: 'text/plain' | 'text/html';
  charset: string;
  encoding: string;
  start: number;
  end: number;
}

export interface AttachmentLayout {
  /** IMAP-style part number: "2", "1.2". */
  partId: string;
  filename: string;
  contentType: string;
  disposition: 'attachment' | 'inline';
  contentId?: string;
  encoding: string;
  start: number;
  end: number;
}

export interface ScannedLayout extends MailLayout {
  attachments: AttachmentLayout[];
  /** Bytes scanned: the EML's size. */
  size: number;
}
