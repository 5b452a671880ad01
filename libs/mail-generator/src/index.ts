export type { Address } from './mail-envelope';
export { referenceMail } from './reference/reference-mail';
export { referenceAttachments } from './reference/reference-attachments';
export { randomMail } from './random/random-mail';
export { malformedMails } from './malformed/malformed-mails';
