import type { Identity } from '../api/types';
import { htmlToText } from '../compose/draft';

/** An identity's signature as Settings edits it: formatted (with a plain-text version beside it) or plain text only. */
export interface SignatureDraft {
  rich: boolean;
  html: string;
  text: string;
  /** The plain-text version is made from the formatted one until the user edits it. */
  textFollowsHtml: boolean;
}

export function signatureDraftOf(identity: Identity): SignatureDraft {
  const html = identity.signatureHtml ?? '';
  const madeFromHtml = htmlToText(html);
  const text = identity.signatureText ?? madeFromHtml;
  return { rich: identity.signatureHtml !== null, html, text, textFollowsHtml: text === madeFromHtml };
}

export function withHtml(draft: SignatureDraft, html: string): SignatureDraft {
  return { ...draft, html, text: draft.textFollowsHtml ? htmlToText(html) : draft.text };
}

export function withText(draft: SignatureDraft, text: string): SignatureDraft {
  return { ...draft, text, textFollowsHtml: draft.rich ? false : draft.textFollowsHtml };
}

/** Turned formatted, a plain signature starts the editor as its lines; the text version follows it from there. */
export function withRich(draft: SignatureDraft, rich: boolean): SignatureDraft {
  if (!rich || draft.html) return { ...draft, rich };
  const container = document.createElement('div');
  draft.text.split('\n').forEach((line, index) => {
    if (index > 0) container.append(document.createElement('br'));
    container.append(line);
  });
  return { ...draft, rich, html: container.innerHTML, textFollowsHtml: true };
}

/** What the identities API is sent: both versions of a formatted signature; a plain one takes the formatted one out. */
export function signatureChanges(draft: SignatureDraft): { signatureText: string | null; signatureHtml: string | null } {
  const signatureText = draft.text.trim() === '' ? null : draft.text;
  if (!draft.rich) return { signatureText, signatureHtml: null };
  return { signatureText, signatureHtml: htmlToText(draft.html) === '' ? null : draft.html };
}
