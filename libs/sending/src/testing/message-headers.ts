import { simpleParser, type AddressObject } from 'mailparser';

function addresses(field: AddressObject | AddressObject[] | undefined): string[] {
  return [field ?? []].flat().flatMap((group) => group.value.map((address) => address.address ?? ''));
}

/** What a message's headers show of its recipients, and the Message-ID it carries. */
export async function headersOf(raw: string) {
  const parsed = await simpleParser(raw);
  return { to: addresses(parsed.to), cc: addresses(parsed.cc), bcc: addresses(parsed.bcc), messageId: parsed.messageId };
}

export async function htmlOf(raw: string): Promise<string> {
  return (await simpleParser(raw)).html || '';
}
