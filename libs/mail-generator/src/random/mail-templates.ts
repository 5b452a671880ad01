import { ENGLISH_TEMPLATES } from './english-templates';
import { JAPANESE_TEMPLATES } from './japanese-templates';
import { KOREAN_TEMPLATES } from './korean-templates';
import type { MailTemplate } from './mail-template';

export const MAIL_TEMPLATES: readonly MailTemplate[] = [...ENGLISH_TEMPLATES, ...KOREAN_TEMPLATES, ...JAPANESE_TEMPLATES];
