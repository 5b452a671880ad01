import { address, highlight, summaryProperties, summaryRequired } from '../mails/mail-response.schemas';

const summary = { type: 'object', properties: summaryProperties, required: summaryRequired } as const;
const latest = { type: 'object', properties: { ...summaryProperties, highlight }, required: summaryRequired } as const;

export const threadListResponse = {
  type: 'object',
  properties: {
    items: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          threadId: { type: 'integer' },
          latest,
          messageCount: { type: 'integer' },
          unreadCount: { type: 'integer' },
          hasAttachments: { type: 'boolean' },
          participants: { type: 'array', items: address },
        },
        required: ['threadId', 'latest', 'messageCount', 'unreadCount', 'hasAttachments', 'participants'],
      },
    },
    nextCursor: { type: ['string', 'null'] },
  },
  required: ['items', 'nextCursor'],
} as const;

export const threadResponse = {
  type: 'object',
  properties: { threadId: { type: 'integer' }, messages: { type: 'array', items: summary } },
  required: ['threadId', 'messages'],
} as const;
