import type { EnvelopeFields } from './layout';

/** What an encapsulated message keeps of each envelope field: a long recipient list is cut, the work on it bounded. */
const MAX_ENVELOPE_FIELD_BYTES = 8 * 1024;

const FIELD_OF_HEADER: Record<string, keyof EnvelopeFields> = {
  date: 'date',
  subject: 'subject',
  from: 'from',
  sender: 'sender',
  'reply-to': 'replyTo',
  to: 'to',
  cc: 'cc',
  bcc: 'bcc',
  'in-reply-to': 'inReplyTo',
  'message-id': 'messageId',
};

/** The envelope's header fields of a message's headers (firstValues), raw. */
export function envelopeFieldsOf(byName: Map<string, string>): EnvelopeFields {
  const fields: EnvelopeFields = {};
  for (const [header, field] of Object.entries(FIELD_OF_HEADER)) {
    const value = byName.get(header);
    if (value !== undefined) fields[field] = value.slice(0, MAX_ENVELOPE_FIELD_BYTES);
  }
  return fields;
}
