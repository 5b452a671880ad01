import type { Address } from '../mail-envelope';
import type { SeededRandom } from '../seeded-random';

export type Language = 'en' | 'ko' | 'ja';

export interface TemplateContext {
  /** For the details a template varies itself: amounts, order numbers, topics. */
  random: SeededRandom;
  senderName: string;
  /** How the greeting addresses the first recipient: a given name, or a family name in Japanese. */
  recipientName: string;
  /** The mail's Date; due dates and meetings are placed relative to it. */
  sentAt: Date;
}

export interface WrittenMail {
  subject: string;
  title: string;
  paragraphs: string[];
  footer?: string;
}

export interface MailTemplate {
  language: Language;
  senders: readonly Address[];
  write(context: TemplateContext): WrittenMail;
}
