import { request, requestJson, requestRevalidated, type Tagged } from './http';
import type {
  BulkChange,
  ContactList,
  MailChanges,
  MailDetail,
  Mailbox,
  MailboxList,
  MailPage,
  ServerDraft,
  ScheduledSendList,
  SendStatusView,
  Session,
  SubmittedSend,
  Thread,
  ThreadPage,
} from './types';

/** `totp`: the authenticator's code or a recovery code, once the API answered that one is needed. */
export const login = (email: string, password: string, totp?: string) =>
  requestJson<Session>('/v2/auth/login', { method: 'POST', json: totp ? { email, password, totp } : { email, password }, anonymous: true });

/** The mailboxes, revalidated against the list held: the counts every screen shows cost a 304 while nothing changed. */
export const fetchMailboxes = (held: Tagged<MailboxList> | null, signal?: AbortSignal) => requestRevalidated<MailboxList>('/v2/mailboxes', held, { signal });

export interface ListParams {
  mailboxId: number;
  sort: '-receivedAt' | 'receivedAt';
  unreadOnly: boolean;
  flaggedOnly: boolean;
  withAttachments: boolean;
  /** Full-text search with operators (from:, has:attachment, "phrases" …). */
  search: string;
  /** Without it a search looks in every folder (mailboxId is then left out). */
  searchFolderOnly: boolean;
  withReceipts: boolean;
  limit: number;
  cursor?: string | null;
}

export function listQuery(params: ListParams): string {
  const query = new URLSearchParams({ sort: params.sort, limit: String(params.limit) });
  if (!params.search.trim() || params.searchFolderOnly) query.set('mailboxId', String(params.mailboxId));
  if (params.unreadOnly) query.set('seen', 'false');
  if (params.flaggedOnly) query.set('flagged', 'true');
  if (params.withAttachments) query.set('hasAttachments', 'true');
  if (params.search.trim()) query.set('q', params.search.trim());
  if (params.withReceipts) query.append('with', 'receipt_confirm');
  if (params.cursor) query.set('cursor', params.cursor);
  return query.toString();
}

export const fetchMails = (params: ListParams, signal?: AbortSignal) => requestJson<MailPage>(`/v2/mails?${listQuery(params)}`, { signal });

/** The same filters, collapsed into conversations (always newest first). */
export function fetchThreads(params: ListParams, signal?: AbortSignal) {
  const query = new URLSearchParams(listQuery(params));
  query.delete('sort');
  query.delete('with');
  return requestJson<ThreadPage>(`/v2/threads?${query.toString()}`, { signal });
}

export const fetchThread = (threadId: number, signal?: AbortSignal) => requestJson<Thread>(`/v2/threads/${threadId}`, { signal });

export type BulkSelection = { ids: number[] } | { threadIds: number[] };

/** One change to the listed mails (or conversations) at once. */
export const changeMails = (selection: BulkSelection, change: MailChanges | { delete: true }) =>
  requestJson<{ updated: number; deleted: number }>('/v2/mails/bulk', { method: 'POST', json: { ...selection, ...change } });

/** A change to every mail the filter matches: the server answers at once and does it in slices (follow it with fetchBulkChange). */
export const startBulkChange = (filter: { mailboxId: number; seen?: boolean }, change: MailChanges | { delete: true }) =>
  requestJson<BulkChange>('/v2/mails/bulk', { method: 'POST', json: { filter, ...change } });

export const fetchBulkChange = (id: number) => requestJson<BulkChange>(`/v2/mails/bulk/${id}`);

/** Takes back a finished change of one flag ("Mark all as read"): another change, followed the same way. */
export const undoBulkChange = (id: number) => requestJson<BulkChange>(`/v2/mails/bulk/${id}/undo`, { method: 'POST' });

export const createMailbox = (name: string) => requestJson<Mailbox>('/v2/mailboxes', { method: 'POST', json: { name } });
export const renameMailbox = (id: number, name: string) => requestJson<Mailbox>(`/v2/mailboxes/${id}`, { method: 'PATCH', json: { name } });
export const deleteMailbox = (id: number) => requestJson<{ id: number; movedToTrash: number }>(`/v2/mailboxes/${id}`, { method: 'DELETE' });

export const fetchContacts = (typed: string, signal?: AbortSignal) =>
  requestJson<ContactList>(`/v2/contacts?limit=8&q=${encodeURIComponent(typed)}`, { signal }).then((body) => body.items);

export const createDraft = (body: FormData | Record<string, unknown>) =>
  requestJson<ServerDraft>('/v2/drafts', { method: 'POST', ...(body instanceof FormData ? { body } : { json: body }) });

/** Saves over `version`; a 412 means another window saved the draft first. */
export const saveDraft = (id: number, version: number, body: FormData | Record<string, unknown>) =>
  requestJson<ServerDraft>(`/v2/drafts/${id}`, {
    method: 'PUT',
    headers: { 'if-match': `"${version}"` },
    ...(body instanceof FormData ? { body } : { json: body }),
  });

export const fetchDraft = (id: number, signal?: AbortSignal) => requestJson<ServerDraft>(`/v2/drafts/${id}`, { signal });

export const deleteDraft = (id: number) => request(`/v2/drafts/${id}`, { method: 'DELETE' });

export const sendDraft = (id: number, version: number, sendAt: string | undefined) =>
  requestJson<SubmittedSend>(`/v2/drafts/${id}/send`, { method: 'POST', headers: { 'if-match': `"${version}"` }, json: sendAt ? { sendAt } : {} });

export const fetchMail = (id: number, signal?: AbortSignal) => requestJson<MailDetail>(`/v2/mails/${id}`, { signal });

export const changeMail = (id: number, changes: MailChanges) => requestJson<unknown>(`/v2/mails/${id}`, { method: 'PATCH', json: changes });

export const deleteMail = (id: number) => requestJson<unknown>(`/v2/mails/${id}`, { method: 'DELETE' });
/** "Report spam" (to Spam) or "Not spam" (to the inbox): the mail moves, and the spam filter learns from it. */
export const reportSpam = (id: number, spam: boolean) =>
  requestJson<{ mailboxId: number }>(`/v2/mails/${id}/${spam ? 'spam' : 'not-spam'}`, { method: 'POST' });
/** "Report spam" or "Not spam" for ticked rows at once: those that move are learned from. */
export const reportSpamOf = (selection: BulkSelection, spam: boolean) =>
  requestJson<{ updated: number }>(`/v2/mails/${spam ? 'spam' : 'not-spam'}`, { method: 'POST', json: selection });
/** "Block sender" (blocked: their mail goes to Spam) or "Never spam" (allowed: never put in Spam by its score). */
export const ruleSender = (list: 'blocked' | 'allowed', address: string) => request(`/v2/spam/${list}`, { method: 'POST', json: { address } });

/** An attachment's bytes, fetched with the session's token (a plain link could not send it). */
export const fetchAttachment = (url: string, signal?: AbortSignal) => request(url, { signal, headers: { accept: '*/*' } }).then((response) => response.blob());

/** All of a mail's files in one zip, with the name the server gave it (its RFC 5987 filename*). */
export async function fetchAttachmentsZip(mailId: number): Promise<{ blob: Blob; filename: string }> {
  const response = await request(`/v2/mails/${mailId}/attachments.zip`, { headers: { accept: 'application/zip' } });
  const encoded = /filename\*=UTF-8''([^;]+)/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  return { blob: await response.blob(), filename: encoded ? decodeURIComponent(encoded) : `mail ${mailId}.zip` };
}

export const sendMail = (body: FormData | Record<string, unknown>, idempotencyKey: string) =>
  requestJson<SubmittedSend>('/v2/mails/send', {
    method: 'POST',
    headers: { 'idempotency-key': idempotencyKey },
    ...(body instanceof FormData ? { body } : { json: body }),
  });

export const fetchSend = (id: number, signal?: AbortSignal) => requestJson<SendStatusView>(`/v2/mails/send/${id}`, { signal });

/** The send a Sent mail is the copy of, with each recipient's status; 404 for a mail no send of the user made. */
export const fetchSendOfMail = (mailId: number, signal?: AbortSignal) => requestJson<SendStatusView>(`/v2/mails/send/for-mail/${mailId}`, { signal });

export const cancelSend = (id: number) => requestJson<SendStatusView>(`/v2/mails/send/${id}/cancel`, { method: 'POST' });

/** The sends waiting for the time "Send later" gave them, soonest first. */
export const fetchScheduledSends = (signal?: AbortSignal) => requestJson<ScheduledSendList>('/v2/mails/send/scheduled', { signal }).then((body) => body.items);

/** Unlocks a locked mailbox with the user's password typed again; a wrong one is a 403. */
export const unlockMailbox = (id: number, password: string) => requestJson<Mailbox>(`/v2/mailboxes/${id}/unlock`, { method: 'POST', json: { password } });
