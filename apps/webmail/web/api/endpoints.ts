import { request, requestJson } from './http';
import type { MailChanges, MailDetail, Mailbox, MailPage, SendView, Session } from './types';

export const login = (email: string, password: string) =>
  requestJson<Session>('/v2/auth/login', { method: 'POST', json: { email, password }, anonymous: true });

export const fetchMailboxes = (signal?: AbortSignal) => requestJson<{ items: Mailbox[] }>('/v2/mailboxes', { signal }).then((body) => body.items);

export interface ListParams {
  mailboxId: number;
  sort: '-receivedAt' | 'receivedAt';
  unreadOnly: boolean;
  flaggedOnly: boolean;
  withAttachments: boolean;
  search: string;
  searchIn: 'subject' | 'from';
  withReceipts: boolean;
  limit: number;
  cursor?: string | null;
}

export function listQuery(params: ListParams): string {
  const query = new URLSearchParams({ mailboxId: String(params.mailboxId), sort: params.sort, limit: String(params.limit) });
  if (params.unreadOnly) query.set('seen', 'false');
  if (params.flaggedOnly) query.set('flagged', 'true');
  if (params.withAttachments) query.set('hasAttachments', 'true');
  if (params.search.trim()) query.set(params.searchIn, params.search.trim());
  if (params.withReceipts) query.append('with', 'receipt_confirm');
  if (params.cursor) query.set('cursor', params.cursor);
  return query.toString();
}

export const fetchMails = (params: ListParams, signal?: AbortSignal) => requestJson<MailPage>(`/v2/mails?${listQuery(params)}`, { signal });

export const fetchMail = (id: number, signal?: AbortSignal) => requestJson<MailDetail>(`/v2/mails/${id}`, { signal });

export const changeMail = (id: number, changes: MailChanges) => requestJson<unknown>(`/v2/mails/${id}`, { method: 'PATCH', json: changes });

export const deleteMail = (id: number) => requestJson<unknown>(`/v2/mails/${id}`, { method: 'DELETE' });

/** An attachment's bytes, fetched with the session's token (a plain link could not send it). */
export const fetchAttachment = (url: string, signal?: AbortSignal) => request(url, { signal, headers: { accept: '*/*' } }).then((response) => response.blob());

export const sendMail = (body: FormData | Record<string, unknown>, idempotencyKey: string) =>
  requestJson<SendView>('/v2/mails/send', {
    method: 'POST',
    headers: { 'idempotency-key': idempotencyKey },
    ...(body instanceof FormData ? { body } : { json: body }),
  });

export const fetchSend = (id: number, signal?: AbortSignal) => requestJson<SendView>(`/v2/mails/send/${id}`, { signal });

export const cancelSend = (id: number) => requestJson<SendView>(`/v2/mails/send/${id}/cancel`, { method: 'POST' });
