/** Where compose keeps the chosen identity's signature in a draft's body, so that choosing another can swap it. */
export interface SignatureSlot {
  /** Exactly what compose put in the body ('' for none). Found there whole and in its place, the user has not edited it. */
  inserted: string;
  /** Where a signature goes while there is none: before the first occurrence of this (the quote's first line); '' or not found: at the end. */
  before: string;
}

/** Above the quote, or at the end of a body without one. */
export type SignaturePlacement = 'aboveQuote' | 'end';

/**
 * The body with the slot's signature swapped for the one `segment` makes for its placement, and the slot that finds
 * it next time; null when the signature compose put in was edited since: it is the user's now, and stays.
 */
export function placeSignature(
  body: string,
  slot: SignatureSlot,
  segment: (placement: SignaturePlacement) => string,
): { body: string; slot: SignatureSlot } | null {
  let rest = body;
  let at: number;
  if (slot.inserted) {
    // Unchanged means whole and where it was put: followed by the quote, or ending the body.
    at = slot.before ? body.indexOf(slot.inserted + slot.before) : -1;
    if (at < 0 && body.endsWith(slot.inserted)) at = body.length - slot.inserted.length;
    if (at < 0) return null;
    rest = body.slice(0, at) + body.slice(at + slot.inserted.length);
  } else {
    at = slot.before ? body.indexOf(slot.before) : -1;
    if (at < 0) at = body.length;
  }
  const placement = slot.before && rest.startsWith(slot.before, at) ? 'aboveQuote' : 'end';
  const inserted = segment(placement);
  return { body: rest.slice(0, at) + inserted + rest.slice(at), slot: { inserted, before: slot.before } };
}

/** The body without the signature compose put in: what the user wrote. */
export function withoutSignature(body: string, slot: SignatureSlot | null): string {
  return slot?.inserted ? body.replace(slot.inserted, '') : body;
}

/** The plain-text signature as it goes in: the usual "-- " line above it, and a blank line between it and the rest. */
export function textSignatureSegment(signature: string, placement: SignaturePlacement): string {
  if (!signature) return '';
  return placement === 'aboveQuote' ? `-- \n${signature}\n\n` : `\n\n-- \n${signature}`;
}
