import { searchableText } from '@letterbox/mail';
import { BULK_USER_EMAIL } from '../data/bench-accounts';
import { ENGLISH_WORDS, KOREAN_WORDS } from '../data/search-vocabulary';
import type { BenchFixtures } from '../harness/bench-fixtures';
import { count } from '../report/format';
import { AUTOCANNON_SECONDS, type LoadScenario } from './scenario';

interface SearchCase {
  name: string;
  what: string;
  /** As typed in the search box. */
  q: string;
  /** The naive server's parameters for the same search: `q` the body text, then one per operator (bench/naive/naive-search.ts). */
  naive: Record<string, string>;
  /** The words of a full-text case, for counting its hits in the search index; operator cases are counted by the API. */
  words?: string;
}

// Ranks in the generated bodies' vocabulary (bench/data/search-vocabulary.ts): the
// second word is in nine English mails in ten, rank 15,000 in a few hundred of 700,000.
const common = ENGLISH_WORDS[1];
const rare = ENGLISH_WORDS[14_999];
const phrase = `${ENGLISH_WORDS[1]} ${ENGLISH_WORDS[2]}`;
const korean = KOREAN_WORDS[6_999];

/** A day `daysAgo` days before today (UTC), as `before:`/`after:` take it. */
const dayBefore = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString().slice(0, 10);

// The bulk mails are clones of 50 templates (libs/demo-data): "weekly" is one sender's
// name and address (3 templates in 50), dohyun one recipient's (To or Cc), "invoice" a
// subject's; a third of the mails are unread, a tenth in "Bulk projects", one arrives every 31 s.
const cases = (): SearchCase[] => {
  const [dayStart, dayEnd, quarter] = [dayBefore(60), dayBefore(59), dayBefore(90)];
  return [
    { name: 'search-rare', what: `a rare word ("${rare}")`, q: rare, naive: { q: rare }, words: rare },
    { name: 'search-common', what: `a common word ("${common}")`, q: common, naive: { q: common }, words: common },
    { name: 'search-phrase', what: `a phrase ("${phrase}")`, q: `"${phrase}"`, naive: { q: phrase }, words: phrase },
    { name: 'search-korean', what: `a rare Korean word ("${korean}")`, q: korean, naive: { q: korean }, words: korean },
    { name: 'search-from', what: 'a sender (from:weekly)', q: 'from:weekly', naive: { from: 'weekly' } },
    { name: 'search-to', what: 'a recipient, To or Cc (to:dohyun)', q: 'to:dohyun', naive: { to: 'dohyun' } },
    { name: 'search-to-none', what: 'a recipient no mail has (to:zzzzqqq)', q: 'to:zzzzqqq', naive: { to: 'zzzzqqq' } },
    { name: 'search-subject', what: 'a subject (subject:invoice)', q: 'subject:invoice', naive: { subject: 'invoice' } },
    { name: 'search-attachment', what: 'has:attachment', q: 'has:attachment', naive: { attachment: '1' } },
    { name: 'search-unread', what: 'is:unread', q: 'is:unread', naive: { unread: '1' } },
    {
      name: 'search-dates',
      what: `a day (after:${dayStart} before:${dayEnd})`,
      q: `after:${dayStart} before:${dayEnd}`,
      naive: { after: dayStart, before: dayEnd },
    },
    { name: 'search-in', what: 'a mailbox (in:"Bulk projects")', q: 'in:"Bulk projects"', naive: { mailbox: 'Bulk projects' } },
    {
      name: 'search-combined',
      what: `every operator and a common word`,
      q: `from:weekly to:sakura subject:weekly has:attachment is:unread in:inbox after:${quarter} ${common}`,
      naive: { from: 'weekly', to: 'sakura', subject: 'weekly', attachment: '1', unread: '1', mailbox: 'Inbox', after: quarter, q: common },
    },
  ];
};

/** Searches of the bulk user's million mails (words, then each operator, then all at once) beside the naive way, at 50 connections. */
export const SEARCH_SCENARIOS: LoadScenario[] = cases().map(({ name, what }, index) => {
  // Built again when the scenario runs, so that dates count from the day of the run.
  const searchCase = () => cases()[index];
  return {
    kind: 'load',
    name,
    title: `GET /v2/mails?q= for ${what} as the bulk user (1,000,000 mails), beside the naive ILIKE`,
    tool: 'autocannon',
    connections: 50,
    defaultDurationSeconds: AUTOCANNON_SECONDS,
    target: async (fixtures) => ({
      paths: [`/v2/mails?limit=20&q=${encodeURIComponent(searchCase().q)}`],
      headers: await fixtures.authorization(BULK_USER_EMAIL),
    }),
    naiveTarget: async (fixtures) => ({
      paths: [`/naive/search?${new URLSearchParams({ limit: '20', ...searchCase().naive }).toString()}`],
      headers: await fixtures.authorization(BULK_USER_EMAIL),
    }),
    check: (fixtures) => matches(fixtures, searchCase()),
  };
});

async function matches(fixtures: BenchFixtures, searchCase: SearchCase): Promise<string> {
  if (searchCase.words) {
    const [userId] = await fixtures.userIdsOf([BULK_USER_EMAIL]);
    const { rows } = await fixtures.sql.query<{ hits: string }>(
      `SELECT count(*) AS hits FROM mail_search WHERE user_id = $1 AND document @@ phraseto_tsquery('simple', $2)`,
      [userId, searchableText(searchCase.words)],
    );
    return `${count(Number(rows[0].hits))} of the bulk user's mails match`;
  }
  const page = await fixtures.api.getJson<{ total: number; totalCapped?: boolean }>(
    `/v2/mails?limit=100&q=${encodeURIComponent(searchCase.q)}`,
    await fixtures.token(BULK_USER_EMAIL),
  );
  return `${page.totalCapped ? 'more than ' : ''}${count(page.total)} of the bulk user's mails match`;
}
