/**
 * JSON Schemas of what the mail routes answer. Fastify compiles them into serializers
 * (several times faster than JSON.stringify on a page of mails), and OpenAPI shows them.
 */
export const address = {
  type: 'object',
  properties: { name: { type: 'string' }, address: { type: 'string' } },
  required: ['name', 'address'],
} as const;

const attachment = {
  type: 'object',
  properties: {
    partId: { type: 'string' },
    filename: { type: 'string' },
    contentType: { type: 'string' },
    disposition: { type: 'string', enum: ['attachment', 'inline'] },
    contentId: { type: ['string', 'null'] },
    size: { type: 'integer' },
  },
  required: ['partId', 'filename', 'contentType', 'disposition', 'contentId', 'size'],
} as const;

const receipt = {
  type: 'object',
  properties: { email: { type: 'string' }, firstReadAt: { type: ['string', 'null'] }, readCount: { type: 'integer' } },
  required: ['email', 'firstReadAt', 'readCount'],
} as const;

export const summaryProperties = {
  id: { type: 'integer' },
  mailboxId: { type: 'integer' },
  threadId: { type: 'integer' },
  messageId: { type: 'string' },
  from: address,
  to: { type: 'array', items: address },
  cc: { type: 'array', items: address },
  subject: { type: 'string' },
  snippet: { type: 'string' },
  receivedAt: { type: 'string', format: 'date-time' },
  size: { type: 'integer' },
  seen: { type: 'boolean' },
  flagged: { type: 'boolean' },
  important: { type: 'boolean' },
  answered: { type: 'boolean' },
  forwarded: { type: 'boolean' },
  hasAttachments: { type: 'boolean' },
} as const;

export const summaryRequired = Object.keys(summaryProperties);

/** Where a search hit's words are: [start, end) offsets into `text`. */
export const highlight = {
  type: 'object',
  properties: {
    text: { type: 'string' },
    marks: { type: 'array', items: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2 } },
  },
  required: ['text', 'marks'],
} as const;

export const mailListResponse = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          ...summaryProperties,
          attachments: { type: 'array', items: attachment },
          receiptConfirm: { type: 'array', items: receipt },
          highlight,
        },
        required: summaryRequired,
      },
    },
    total: { type: 'integer' },
    totalCapped: { type: 'boolean' },
    nextCursor: { type: ['string', 'null'] },
  },
  required: ['items', 'total', 'nextCursor'],
} as const;

export const mailDetailResponse = {
  type: 'object',
  properties: {
    ...summaryProperties,
    headers: {
      type: 'array',
      items: { type: 'object', properties: { name: { type: 'string' }, value: { type: 'string' } }, required: ['name', 'value'] },
    },
    text: { type: 'string' },
    html: { type: ['string', 'null'] },
    truncated: { type: 'boolean' },
    attachments: {
      type: 'array',
      items: { ...attachment, properties: { ...attachment.properties, url: { type: 'string' } }, required: [...attachment.required, 'url'] },
    },
  },
  required: [...summaryRequired, 'headers', 'text', 'html', 'truncated', 'attachments'],
} as const;
