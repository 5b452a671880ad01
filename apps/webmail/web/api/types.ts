/**
 * What the read and send APIs answer, as the webmail uses it. The wire types come from the
 * APIs' OpenAPI documents (generated/, written by scripts/webmail-api-types.ts before every
 * type-check), so a field the SPA reads that an API no longer sends fails the type-check.
 */
import type { Draft } from './generated/send-api';

export type {
  MailPage,
  MailSummary,
  MailDetail,
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
} from './generated/read-api';
/** ServerDraft: a draft as the send API keeps it; its version is what the next save must name. */
export type { Draft as ServerDraft, Send as SendView, SubmittedSend } from './generated/send-api';

export type AnswerMode = NonNullable<Draft['answering']>['mode'];

export interface User {
  id: number;
  officeId: number;
  email: string;
  displayName: string;
}

export interface Session {
  accessToken: string;
  expiresAt: string;
  user: User;
}

export interface MailChanges {
  seen?: boolean;
  flagged?: boolean;
  important?: boolean;
  mailboxId?: number;
}
