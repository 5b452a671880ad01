/**
 * What the read and send APIs answer, as the webmail uses it. The wire types come from the
 * APIs' OpenAPI documents (generated/, written by scripts/webmail-api-types.ts before every
 * type-check), so a field the SPA reads that an API no longer sends fails the type-check.
 */
import type { Language } from '../i18n/language';
import type { Draft, SendStatus } from './generated/send-api';

export type {
  MailPage,
  MailSummary,
  MailDetail,
  /** What the ingest's checks found about who sent a mail; null on the detail for mail stored before them and local mail. */
  MailAuthentication,
  /** What rspamd made of an incoming mail: its score, the score it rejects at, its action and the rules that matched. */
  SpamVerdict,
  MailAddress as Address,
  /** Where a search hit's words are in `text`: [start, end) offsets. */
  SearchHighlight as Highlight,
  Receipt,
  Thread,
  ThreadPage,
  ThreadSummary,
  Mailbox,
  MailboxList,
  Contact,
  ContactList,
  /** A change over a filter, done in slices by the server: how far it is. */
  BulkChange,
  /** The out-of-office reply: its text, and whether and when it is sent. */
  Vacation,
  /** One of the user's own addresses as they send from it: its name and signature. */
  Identity,
  IdentityList,
  /** A password a mail client (SMTP, IMAP) signs in with, listed without it. */
  AppPassword,
  AppPasswordList,
  /** A new app password, with the password itself: shown once. */
  CreatedAppPassword,
  /** What running the rules over a folder's mail did: mails examined, matched, changed. */
  AppliedRules,
} from './generated/read-api';
/** ServerDraft: a draft as the send API keeps it; its version is what the next save must name. */
export type { Draft as ServerDraft, SubmittedSend, SendRecipient, ScheduledSend, ScheduledSendList } from './generated/send-api';
/** A send with what became of each recipient (bounced, suppressed, …): what its status route answers. */
export type SendStatusView = SendStatus;
/** A send's own fields, which a new send's answer (SubmittedSend) has too. */
export type SendView = Omit<SendStatus, 'recipients'>;

export type AnswerMode = NonNullable<Draft['answering']>['mode'];

export interface User {
  id: number;
  officeId: number;
  email: string;
  displayName: string;
}

/*
 * The account and administration wire types below are written by hand from issue 29's contract; once the read API
 * documents them, they can be taken from generated/read-api like the mail types above.
 */

export interface Session {
  accessToken: string;
  expiresAt: string;
  user: User;
  /** An administrator's initial or reset password: the user chooses their own before anything else. */
  passwordChangeRequired?: boolean;
  /** The office requires two-factor sign-in and the user has none yet: they set it up before anything else. */
  totpSetupRequired?: boolean;
}

export type Role = 'user' | 'admin';

export interface Usage {
  usedBytes: number;
  quotaBytes: number;
}

export interface Me extends User {
  role: Role;
  passwordChangeRequired: boolean;
  totpEnabled: boolean;
  totpSetupRequired: boolean;
  /** The primary address first, then the aliases. */
  addresses: string[];
  usage: Usage;
  /** The language the user chose for the webmail. */
  /** The language the user chose; null until they choose, and the browser's is used. */
  locale: Language | null;
}

export interface TotpSetup {
  secret: string;
  otpauthUrl: string;
}

export interface AdminUser {
  id: number;
  email: string;
  displayName: string;
  role: Role;
  state: 'active' | 'disabled';
  /** The effective quota: the user's own, or the deployment's default. */
  quotaBytes: number;
  customQuota: boolean;
  usedBytes: number;
  aliases: string[];
  totpEnabled: boolean;
  passwordChangeRequired: boolean;
  createdAt: string;
}

export interface AdminUserPage {
  users: AdminUser[];
  nextCursor: string | null;
}

export interface NewUser {
  email: string;
  displayName: string;
  password: string;
  role?: Role;
  quotaBytes?: number;
}

export interface UserChanges {
  displayName?: string;
  role?: Role;
  /** null: back to the default quota. */
  quotaBytes?: number | null;
  state?: AdminUser['state'];
  /** A reset: the user must change it at the next sign-in, and every token ends. */
  password?: string;
}

export interface Domain {
  id: number;
  name: string;
  createdAt: string;
}

export interface GroupMembers {
  users: Array<{ id: number; email: string; displayName: string }>;
  groups: Array<{ id: number; name: string; address: string }>;
}

export interface AdminGroup {
  id: number;
  name: string;
  address: string;
  members: GroupMembers;
}

export interface GroupChanges {
  name?: string;
  userIds?: number[];
  groupIds?: number[];
}

export interface Office {
  id: number;
  name: string;
  domain: string;
  requireTotp: boolean;
}

export interface AuditEvent {
  id: string;
  at: string;
  /** The actor's address, or `cli` for the operator's command line. */
  actor: string;
  actorUserId: number | null;
  action: string;
  target: string | null;
  details: Record<string, unknown>;
  clientAddress: string | null;
}

export interface AuditPage {
  events: AuditEvent[];
  nextCursor: string | null;
}

export interface MailChanges {
  seen?: boolean;
  flagged?: boolean;
  important?: boolean;
  mailboxId?: number;
}
