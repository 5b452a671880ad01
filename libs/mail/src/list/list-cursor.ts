/** Where a page ended: the last mail's received time and id, which order the list. */
export interface ListCursor {
  receivedAt: Date;
  id: number;
}

export function encodeCursor(cursor: ListCursor): string {
  return Buffer.from(JSON.stringify([cursor.receivedAt.getTime(), cursor.id])).toString('base64url');
}

/** The cursor a previous page gave, or undefined if `text` is not one. */
export function decodeCursor(text: string): ListCursor | undefined {
  try {
    const value: unknown = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
    if (!Array.isArray(value) || value.length !== 2) return undefined;
    const [time, id] = value as unknown[];
    if (!Number.isSafeInteger(time) || !Number.isSafeInteger(id) || (id as number) < 1) return undefined;
    const receivedAt = new Date(time as number);
    return Number.isNaN(receivedAt.getTime()) ? undefined : { receivedAt, id: id as number };
  } catch {
    return undefined;
  }
}
