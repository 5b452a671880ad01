import type { SecureContext } from 'node:tls';
import type { MailClientUser } from '@letterbox/accounts';
import type {
  ChangeMailboxes,
  ImapAppend,
  ImapExpunge,
  ImapFlagChanges,
  ImapMailboxState,
  ImapMailTransfers,
  ImapMessages,
  ImapSearchCriterion,
  ImapSearchResult,
  ImapSortKey,
  ImapThreadAlgorithm,
  ImapThreads,
  MailMimeTrees,
  MailSectionReader,
} from '@letterbox/mail';
import type { ImapMailboxes } from '../mailboxes/imap-mailboxes';
import type { LiteralIntake, LiteralRequest, StreamedLiteral } from '../protocol/literal-intake';
import type { ResponsePart } from '../protocol/response-format';
import type { StreamedResponsePart } from '../protocol/response-writer';
import type { Token } from '../protocol/tokens';
import type { ReportOptions } from '../selected/report-changes';
import type { SelectedMailbox } from '../selected/selected-mailbox';
import type { ConnectionLimits } from './connection-limits';
import type { PasswordCheck } from './password-check';
import type { SessionState } from './session-state';

/** What every session of a server shares. */
export interface ImapServices {
  checkPassword: PasswordCheck;
  mailboxes: ImapMailboxes;
  /** A mailbox's mail by UID, and what changed in it since a MODSEQ. */
  messages: ImapMessages;
  /** A mailbox's UIDVALIDITY, UIDNEXT and HIGHESTMODSEQ; undefined once it is gone or locked. */
  mailboxState(userId: number, mailboxId: number): Promise<ImapMailboxState | undefined>;
  /** Reads FETCH's sections from storage by range. */
  sections: MailSectionReader;
  /** A mail's MIME tree, found and kept on first use for mail stored before trees were recorded. */
  mimeTrees: MailMimeTrees;
  /** Sets \Seen on the user's mails the way the webmail does, announcing it to their other clients. */
  markSeen(userId: number, mailIds: number[]): Promise<void>;
  /** STORE: flags of a mailbox's mails by UID, changed and announced as the webmail's changes are. */
  flagChanges: ImapFlagChanges;
  /** COPY and MOVE between the user's mailboxes, answering the destination's UIDs. */
  transfers: ImapMailTransfers;
  /** EXPUNGE: a mailbox's \Deleted mails deleted for good. */
  expunger: ImapExpunge;
  /** APPEND: a message stored in a mailbox as mail is stored, answering its UID. */
  appender: ImapAppend;
  /** APPEND to \Sent: a message the user submitted answered with its send's Sent copy, not stored twice (libs/sending SentFolderAppends). */
  sentAppends: { append: ImapAppend['append'] };
  /** A message APPENDed to Drafts made a server draft, as the webmail's drafts are (libs/sending AppendedDrafts). */
  appendedDrafts: { adopt(userId: number, mailId: number, ownAddresses: readonly string[]): Promise<void> };
  /** The largest message APPEND takes, in bytes: past it, NO [TOOBIG] before it is read. */
  appendLimit: number;
  /** SEARCH: the UIDs of a mailbox's mails that match. */
  search(userId: number, mailboxId: number, criterion: ImapSearchCriterion): Promise<ImapSearchResult>;
  /** SORT: the UIDs of a mailbox's mails that match, in the keys' order. */
  sort(userId: number, mailboxId: number, criterion: ImapSearchCriterion, keys: readonly ImapSortKey[]): Promise<ImapSearchResult>;
  /** THREAD: the mails that match, thread by thread. */
  thread(userId: number, mailboxId: number, criterion: ImapSearchCriterion, algorithm: ImapThreadAlgorithm): Promise<ImapThreads>;
  /** Rings when the user's mail may have changed, from whatever process changed it. */
  doorbell: MailDoorbell;
  /** The folders lib the API changes folders through: CREATE, RENAME and DELETE count, announce and move mail as the webmail does. */
  changeMailboxes: Pick<ChangeMailboxes, 'create' | 'rename' | 'remove'>;
  limits: ConnectionLimits;
  /** LOGIN and AUTHENTICATE without TLS (the demo's IMAP_ALLOW_PLAINTEXT). */
  allowPlaintext: boolean;
  /** The certificate STARTTLS presents, the current one after a renewal; undefined: no STARTTLS. */
  tlsContext: () => SecureContext | undefined;
}

/** A user's mail changes as they happen, one listener per waiting session; `listen` answers how to stop. */
export interface MailDoorbell {
  listen(userId: number, ring: () => void): Promise<() => void>;
}

/** What a command handler may see and do of its connection. */
export interface Session {
  readonly state: SessionState;
  readonly user: MailClientUser | undefined;
  /** The signed-in user's id; only in the states that need one. */
  userId(): number;
  readonly secure: boolean;
  readonly clientAddress: string;
  /** Extensions the client turned on with ENABLE. */
  readonly enabled: ReadonlySet<string>;
  capabilities(): string[];
  send(parts: ResponsePart[]): void;
  /**
   * Writes a response, resolving once the socket has taken it: a command writing many or large responses (FETCH)
   * awaits each, and a literal stream's bytes go out as they are read. Rejects when the connection closes.
   */
  write(parts: StreamedResponsePart[]): Promise<void>;
  /** The next line the client sends, raw: AUTHENTICATE's response, IDLE's DONE. */
  readContinuationLine(): Promise<string>;
  /** The user is signed in: false when they have as many sessions as they may. */
  signedIn(user: MailClientUser): Promise<boolean>;
  enable(extension: string): void;
  /** The mailbox SELECT or EXAMINE opened, as the client was last told of it. */
  selected(): SelectedMailbox | undefined;
  /** Enters the selected state with this mailbox. */
  select(mailbox: SelectedMailbox): void;
  /** Back to the authenticated state. */
  unselect(): void;
  /**
   * Sends the untagged EXISTS, EXPUNGE or VANISHED and FETCH (FLAGS [MODSEQ]) of everything that changed in the
   * selected mailbox since the session last looked, its own changes included, and renumbers the messages.
   */
  reportChanges(options?: ReportOptions): Promise<void>;
  /** Stops reading at once and forgets what was read past the command: STARTTLS's first step. */
  stopReadingForTls(): void;
  upgradeToTls(context: SecureContext): void;
  close(): void;
}

export interface CommandContext {
  tag: string;
  name: string;
  args: Token[];
  session: Session;
  services: ImapServices;
  /**
   * The literal the handler's literalIntake took as a stream; `args` are the tokens before it. Once the handler
   * is done, the session reads past whatever of it and of its `rest` the handler left.
   */
  literal?: StreamedLiteral;
}

/** A command's tagged answer; `after` runs once it is written (STARTTLS's handshake, LOGOUT's close). */
export interface Completion {
  status: 'OK' | 'NO' | 'BAD';
  text: string;
  code?: string;
  after?: () => void;
}

export interface CommandHandler {
  /** The states it runs in; in any other, BAD. */
  states: readonly SessionState[];
  run(context: CommandContext): Promise<Completion>;
  /** For a command whose literal may be large (APPEND's message): takes it as a stream (CommandContext.literal), or refuses it unread. */
  literalIntake?(request: LiteralRequest, session: Session, services: ImapServices): LiteralIntake | undefined;
}

export const ok = (text: string, code?: string): Completion => ({ status: 'OK', text, ...(code ? { code } : {}) });
