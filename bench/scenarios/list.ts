import type { MailListPage } from '@letterbox/mail';
import { BULK_USER_EMAIL } from '../data/bench-accounts';
import { count } from '../report/format';
import { AUTOCANNON_SECONDS, type LoadScenario } from './scenario';

const PAGE = '/v2/mails?limit=20';

export const listScenario: LoadScenario = {
  kind: 'load',
  name: 'list',
  title: 'GET /v2/mails?limit=20 as the bulk user (1,000,000 mails, 1% in a locked mailbox)',
  tool: 'autocannon',
  connections: 200,
  defaultDurationSeconds: AUTOCANNON_SECONDS,
  target: async (fixtures) => ({ paths: [PAGE], headers: await fixtures.authorization(BULK_USER_EMAIL) }),
  naiveTarget: async (fixtures) => ({ paths: ['/naive/mails?limit=20'], headers: await fixtures.authorization(BULK_USER_EMAIL) }),
  check: async (fixtures) => {
    const page = await fixtures.api.getJson<MailListPage>(PAGE, await fixtures.token(BULK_USER_EMAIL));
    const { rows } = await fixtures.sql.query<{ visible: string; locked: string }>(
      `SELECT count(*) FILTER (WHERE NOT mb.locked) AS visible, count(*) FILTER (WHERE mb.locked) AS locked
         FROM mails m JOIN mailboxes mb ON mb.id = m.mailbox_id JOIN users u ON u.id = m.user_id
        WHERE u.email = $1 AND m.deleted_at IS NULL`,
      [BULK_USER_EMAIL],
    );
    const visible = Number(rows[0].visible);
    const locked = Number(rows[0].locked);
    if (page.total !== visible) {
      throw new Error(`the list total is ${page.total}, but ${visible} mails are outside locked mailboxes (${locked} inside)`);
    }
    return `total ${count(page.total)} = the mails outside locked mailboxes (${count(locked)} locked ones left out)`;
  },
};
