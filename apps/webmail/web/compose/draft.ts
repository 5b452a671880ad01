export interface Draft {
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
}

export const emptyDraft = (): Draft => ({
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
});

export const MAX_ATTACHMENT_BYTES = 25 * 1024 * 1024;

export const splitAddresses = (value: string) =>
  value
    .split(/[,;\n]/)
    .map((part) => part.trim())
    .filter(Boolean);

const EMAIL = /^[^\s@<>]+@[^\s@<>]+\.[^\s@<>]+$/;

/** What is wrong with the draft, by field; empty when it can be sent. */
export function draftProblems(draft: Draft): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const field of ['to', 'cc', 'bcc'] as const) {
    const bad = splitAddresses(draft[field]).filter((address) => !EMAIL.test(address));
    if (bad.length) problems[field] = `Not an email address: ${bad.join(', ')}`;
  }
  if (![draft.to, draft.cc, draft.bcc].some((field) => splitAddresses(field).length)) problems.to = 'Give at least one recipient.';
  const size = draft.files.reduce((total, file) => total + file.size, 0);
  if (size > MAX_ATTACHMENT_BYTES) problems.files = 'Attachments may be 25 MB in all.';
  return problems;
}

/** The plain text of the editor's HTML, for the text/plain part. */
export function htmlToText(html: string): string {
  const container = document.createElement('div');
  container.innerHTML = html.replace(/<br\s*\/?>/gi, '\n').replace(/<\/(p|div|li|h\d)>/gi, '$&\n');
  return (container.textContent ?? '').replace(/\n{3,}/g, '\n\n').trim();
}

/** The send API's request: JSON, or multipart/form-data when files go with it. */
export function sendBody(draft: Draft): FormData | Record<string, unknown> {
  const fields: Record<string, string | string[] | boolean | undefined> = {
    to: splitAddresses(draft.to),
    cc: splitAddresses(draft.cc),
    bcc: splitAddresses(draft.bcc),
    subject: draft.subject,
    text: draft.rich ? htmlToText(draft.html) : draft.text,
    html: draft.rich ? draft.html : undefined,
    requestReadReceipt: draft.requestReadReceipt,
    sendSeparately: draft.sendSeparately,
    sendAt: draft.undoSeconds > 0 ? new Date(Date.now() + draft.undoSeconds * 1000).toISOString() : undefined,
  };
  if (draft.files.length === 0) return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined));
  const form = new FormData();
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) form.append(name, String(item));
  }
  for (const file of draft.files) form.append('attachments', file, file.name);
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
