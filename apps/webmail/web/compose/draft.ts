import type { AnswerMode, ServerDraft } from '../api/types';
import { i18next } from '../i18n/i18n';
import type { SignatureSlot } from './signature-slot';

/** The copy kept on the server (send API drafts): what its next save must name, and which files it already holds. */
export interface DraftSync {
  id: number;
  version: number;
  /** Files of the draft already stored with it: their key (fileKey) → the server's attachment id. */
  uploaded: Record<string, string>;
}

export interface Draft {
  /** The identity it is written as: one of the user's addresses; null: their primary. */
  from: string | null;
  /**
   * A new draft's From is chosen once the user's identities have loaded: the one the answered mail was sent to
   * (these addresses, see answeringIdentity), else the primary. Null once chosen, and for a draft reopened.
   */
  choosingFrom: { addressedTo: string[] } | null;
  /** The identity's signature compose keeps in the body; null in a draft reopened, whose body is as the user left it. */
  signature: SignatureSlot | null;
  to: string;
  cc: string;
  bcc: string;
  subject: string;
  /** Rich text (HTML from the editor) or plain text. */
  rich: boolean;
  text: string;
  html: string;
  files: File[];
  requestReadReceipt: boolean;
  sendSeparately: boolean;
  /** Seconds the send waits so it can be undone; 0 sends at once. */
  undoSeconds: number;
  /** "Send later": when the send goes, as a datetime-local input gives it (local time); '' sends now. */
  sendLaterAt: string;
  /** The mail this answers or forwards: the server adds its headers (and a forward's attachments). */
  original: { mailId: number; mode: AnswerMode } | null;
  /** Attachments on the server only (a forward's, a draft reopened from Drafts). */
  serverAttachments: Array<{ id: string; filename: string; size: number }>;
  server: DraftSync | null;
}

export const emptyDraft = (): Draft => ({
  from: null,
  choosingFrom: { addressedTo: [] },
  signature: { inserted: '', before: '' },
  to: '',
  cc: '',
  bcc: '',
  subject: '',
  rich: true,
  text: '',
  html: '',
  files: [],
  requestReadReceipt: false,
  sendSeparately: false,
  undoSeconds: 5,
  sendLaterAt: '',
  original: null,
  serverAttachments: [],
  server: null,
});

/** Tells apart the files of a draft, which have no ids of their own. */
export const fileKey = (file: File) => `${file.name}:${file.size}:${file.lastModified}`;

/** A draft reopened from Drafts. */
export function draftFromServer(saved: ServerDraft): Draft {
  return {
    ...emptyDraft(),
    from: saved.from,
    choosingFrom: null,
    signature: null,
    to: saved.to.join(', '),
    cc: saved.cc.join(', '),
    bcc: saved.bcc.join(', '),
    subject: saved.subject,
    rich: saved.html !== null,
    text: saved.text ?? '',
    html: saved.html ?? '',
    requestReadReceipt: saved.requestReadReceipt,
    original: saved.answering,
    serverAttachments: saved.attachments.map(({ id, filename, size }) => ({ id, filename, size })),
    server: { id: saved.id, version: saved.version, uploaded: {} },
  };
}

export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;

export const splitAddresses = (value: string) =>
  value
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter(Boolean);

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

const isAddress = (address: string) => EMAIL.test(address);

/** The addresses still being typed (not yet an email address), which a draft's save leaves out. */
export const unfinishedAddresses = (draft: Draft): string[] =>
  [draft.to, draft.cc, draft.bcc].flatMap((field) => splitAddresses(field).filter((address) => !isAddress(address)));

/** What is wrong with the draft, by field; empty when it can be sent. */
export function draftProblems(draft: Draft): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of ['to', 'cc', 'bcc'] as const) {
    const bad = splitAddresses(draft[field]).filter((address) => !isAddress(address));
    if (bad.length) problems[field] = i18next.t('compose.notAnAddress', { addresses: bad.join(', ') });
  }
  if (![draft.to, draft.cc, draft.bcc].some((field) => splitAddresses(field).length)) problems.to = i18next.t('compose.noRecipient');
  if (draft.sendLaterAt && !(new Date(draft.sendLaterAt).getTime() > Date.now())) problems.sendLaterAt = i18next.t('compose.pastTime');
  const size = draft.files.reduce((total, file) => total + file.size, 0);
  if (size > MAX_ATTACHMENT_BYTES) problems.files = i18next.t('compose.tooLarge');
  return problems;
}

/** What the rich editor starts from: the draft's HTML, else its plain text. */
export function editorHtml(draft: Draft): string {
  return draft.html || draft.text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/\n/g, '<br>');
}

/** The plain text of the editor's HTML, for the text/plain part. */
export function htmlToText(html: string): string {
  const container = document.createElement('div');
  container.innerHTML = html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|div|li|h\d)>/gi, '$&\n');
  return (container.textContent ?? '').replace(/\n{3,}/g, '\n\n').trim();
}

type Fields = Record<string, string | string[] | number | boolean | undefined>;

/** What the user wrote, as both the send and the drafts API take it. */
function contentFields(draft: Draft): Fields {
  return {
    from: draft.from ?? undefined,
    to: splitAddresses(draft.to),
    cc: splitAddresses(draft.cc),
    bcc: splitAddresses(draft.bcc),
    subject: draft.subject,
    text: draft.rich ? htmlToText(draft.html) : draft.text,
    html: draft.rich ? draft.html : undefined,
    requestReadReceipt: draft.requestReadReceipt,
  };
}

/** When the send goes: the time picked for "Send later", else after the undo delay, else at once. */
export function sendAtOf(draft: Draft): string | undefined {
  if (draft.sendLaterAt) return new Date(draft.sendLaterAt).toISOString();
  return draft.undoSeconds > 0 ? new Date(Date.now() + draft.undoSeconds * 1000).toISOString() : undefined;
}

/** The send API's request: JSON, or multipart/form-data when files go with it. */
export function sendBody(draft: Draft): FormData | Record<string, unknown> {
  return requestBody(
    {
      ...contentFields(draft),
      sendSeparately: draft.sendSeparately,
      sendAt: sendAtOf(draft),
      original: draft.original?.mailId,
      mode: draft.original?.mode,
    },
    draft.files,
  );
}

/**
 * A save of the draft on the server: everything written, the files it does not hold yet,
 * and the ids of those it holds that the user took away. `newFiles` are in the order the
 * server appends them to its attachments.
 */
export function draftSaveBody(draft: Draft, removedServerAttachments: string[]): { body: FormData | Record<string, unknown>; newFiles: File[] } {
  const uploaded = draft.server?.uploaded ?? {};
  const keys = new Set(draft.files.map(fileKey));
  const newFiles = draft.files.filter((file) => !(fileKey(file) in uploaded));
  const removed = [
    ...Object.entries(uploaded)
      .filter(([key]) => !keys.has(key))
      .map(([, id]) => id),
    ...removedServerAttachments,
  ];
  const content = contentFields(draft);
  // An address still being typed would make the server refuse the whole save: the rest is saved without it.
  for (const field of ['to', 'cc', 'bcc'] as const) content[field] = (content[field] as string[]).filter(isAddress);
  const fields: Fields = draft.server ? content : { ...content, original: draft.original?.mailId, mode: draft.original?.mode };
  if (removed.length > 0) fields.removeAttachments = removed;
  return { body: requestBody(fields, newFiles), newFiles };
}

function requestBody(fields: Fields, files: File[]): FormData | Record<string, unknown> {
  const given = Object.entries(fields).filter(([, value]) => value !== undefined);
  if (files.length === 0) return Object.fromEntries(given);
  const form = new FormData();
  for (const [name, value] of given) for (const item of Array.isArray(value) ? value : [value]) form.append(name, String(item));
  for (const file of files) form.append('attachments', file, file.name);
  return form;
}

const STORED = 'letterbox.draft';

/** The draft without its files, kept for a reload or a new sign-in. */
export function storeDraft(draft: Draft | null): void {
  if (!draft) sessionStorage.removeItem(STORED);
  else sessionStorage.setItem(STORED, JSON.stringify({ ...draft, files: [] }));
}

export function storedDraft(): Draft | null {
  try {
    const draft = JSON.parse(sessionStorage.getItem(STORED) ?? 'null') as Draft | null;
    return draft ? { ...emptyDraft(), ...draft, files: [] } : null;
  } catch {
    return null;
  }
}
