import type { AttachmentView } from '@letterbox/mail';
import { ALICE_EMAIL } from '../data/bench-accounts';
import type { LoadScenario } from './scenario';

export const attachment16mScenario: LoadScenario = {
  kind: 'load',
  name: 'attachment-16m',
  title: 'GET /v2/mails/:id/attachments/:partId of the 16 MB attachment, base64-decoded as it streams (wrk)',
  tool: 'wrk',
  connections: 8,
  defaultDurationSeconds: 10,
  target: async (fixtures) => {
    const mailId = await fixtures.referenceMailId(ALICE_EMAIL, 'large');
    const mail = await fixtures.api.getJson<{ attachments: AttachmentView[] }>(`/v2/mails/${mailId}`, await fixtures.token(ALICE_EMAIL));
    const largest = mail.attachments.reduce((best, attachment) => (attachment.size > best.size ? attachment : best));
    return { paths: [`/v2/mails/${mailId}/attachments/${largest.partId}`], headers: await fixtures.authorization(ALICE_EMAIL) };
  },
};
