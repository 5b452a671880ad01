import type { Identity } from '../api/types';
import { editorHtml, htmlToText, type Draft } from './draft';
import { placeSignature, textSignatureSegment, type SignaturePlacement } from './signature-slot';

/**
 * The draft written as this identity: from its address (the send API gives it the identity's name), with its
 * signature in place of the one compose put in, unless the user has edited that one.
 */
export function withIdentity(draft: Draft, identity: Identity): Draft {
  const chosen: Draft = { ...draft, from: identity.address, choosingFrom: null };
  if (!draft.signature) return chosen;
  if (draft.rich) {
    const placed = placeSignature(editorHtml(draft), draft.signature, (placement) => htmlSignatureSegment(identity, placement));
    return placed ? { ...chosen, html: placed.body, signature: placed.slot } : chosen;
  }
  const placed = placeSignature(draft.text, draft.signature, (placement) => textSignatureSegment(signatureText(identity), placement));
  return placed ? { ...chosen, text: placed.body, signature: placed.slot } : chosen;
}

function signatureText(identity: Identity): string {
  return identity.signatureText ?? (identity.signatureHtml ? htmlToText(identity.signatureHtml) : '');
}

/**
 * The signature as the rich editor holds it, serialized as the browser serializes the editor's content, so that it is
 * found there unchanged. Its HTML was sanitized by the identities API when saved; a template parses it inertly.
 */
function htmlSignatureSegment(identity: Identity, placement: SignaturePlacement): string {
  const template = document.createElement('template');
  if (identity.signatureHtml) template.innerHTML = identity.signatureHtml;
  else template.content.append(...lines(identity.signatureText ?? ''));
  if (!template.content.hasChildNodes()) return '';
  const block = document.createElement('div');
  block.className = 'signature';
  block.append('-- ', document.createElement('br'), template.content);
  return placement === 'aboveQuote' ? `${block.outerHTML}<br>` : `<div><br></div>${block.outerHTML}`;
}

/** Plain text as the editor shows it: its lines, with a line break between each. */
function lines(text: string): Node[] {
  if (!text) return [];
  return text
    .split('\n')
    .flatMap((line, index) => (index === 0 ? [document.createTextNode(line)] : [document.createElement('br'), document.createTextNode(line)]));
}
