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
  /** The whole MIME tree, what IMAP FETCH answers from. Absent for mail stored before it was recorded (scanLayout finds it). */
  tree?: MimePart;
}

/**
 * One MIME entity: a message or a body part. Header text is kept as raw bytes (latin1
 * strings, as IMAP returns it), each value cut at MAX_FIELD_BYTES; optional fields are left
 * out when the header is absent, so a common mail's tree stays small in its row. Offsets are
 * as in MailLayout; the entity's header block is [header, body), its body [body, end).
 */
export interface MimePart {
  /** Lower-case "type/subtype"; a multipart with no part recorded is text/plain (the text it is). */
  type: string;
  /** Content-Type parameters in order, names lower-case, values unquoted. */
  params?: Array<[string, string]>;
  header: number;
  body: number;
  end: number;
  /** Lines of the body, for text/* and message/rfc822. */
  lines?: number;
  id?: string;
  description?: string;
  /** Content-Transfer-Encoding, lower-case; absent means 7bit. */
  encoding?: string;
  disposition?: { type: string; params?: Array<[string, string]> };
  language?: string[];
  location?: string;
  md5?: string;
  /** A multipart's parts, in order. */
  parts?: MimePart[];
  /** A message/rfc822 part's message: its own header block, body and parts. */
  message?: MimePart;
  /** Of a message, the top-level one (recorded since the tree holds it) and an encapsulated one: what its ENVELOPE is made from. */
  envelope?: EnvelopeFields;
}

/** The raw values (unfolded) of the header fields an IMAP ENVELOPE holds, each the first of its name; absent when missing. */
export interface EnvelopeFields {
  date?: string;
  subject?: string;
  from?: string;
  sender?: string;
  replyTo?: string;
  to?: string;
  cc?: string;
  bcc?: string;
  inReplyTo?: string;
  messageId?: string;
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
  tree: MimePart;
  attachments: AttachmentLayout[];
  /** Bytes scanned: the EML's size. */
  size: number;
}
