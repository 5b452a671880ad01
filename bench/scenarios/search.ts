import { searchableText } from '@letterbox/mail';
import { BULK_USER_EMAIL } from '../data/bench-accounts';
import { ENGLISH_WORDS, KOREAN_WORDS } from '../data/search-vocabulary';
import { count } from '../report/format';
import { AUTOCANNON_SECONDS, type LoadScenario } from './scenario';

interface SearchCase {
  name: string;
  what: string;
  /** As typed in the search box. */
  q: string;
  /** The text the naive way looks for in the body. */
  naive: string;
  /** The words of the case, for counting its hits. */
  words: string;
}

// Ranks in the generated bodies' vocabulary (bench/data/search-vocabulary.ts): the
// second word is in nine English mails in ten, rank 15,000 in a few hundred of 700,000.
const common = ENGLISH_WORDS[1];
const rare = ENGLISH_WORDS[14_999];
const phrase = `${ENGLISH_WORDS[1]} ${ENGLISH_WORDS[2]}`;
const korean = KOREAN_WORDS[6_999];

const CASES: SearchCase[] = [
  { name: 'search-rare', what: `a rare word ("${rare}")`, q: rare, naive: rare, words: rare },
  { name: 'search-common', what: `a common word ("${common}")`, q: common, naive: common, words: common },
  { name: 'search-phrase', what: `a phrase ("${phrase}")`, q: `"${phrase}"`, naive: phrase, words: phrase },
  { name: 'search-korean', what: `a rare Korean word ("${korean}")`, q: korean, naive: korean, words: korean },
];

/** Full-text search of the bulk user's million mails beside ILIKE over the body text, at 50 connections. */
export const SEARCH_SCENARIOS: LoadScenario[] = CASES.map((searchCase) => ({
  kind: 'load',
  name: searchCase.name,
  title: `GET /v2/mails?q= for ${searchCase.what} as the bulk user (1,000,000 mails), beside ILIKE over the body text`,
  tool: 'autocannon',
  connections: 50,
  defaultDurationSeconds: AUTOCANNON_SECONDS,
  target: async (fixtures) => ({ paths: [`/v2/mails?limit=20&q=${encodeURIComponent(searchCase.q)}`], headers: await fixtures.authorization(BULK_USER_EMAIL) }),
  naiveTarget: async (fixtures) => ({
    paths: [`/naive/search?limit=20&q=${encodeURIComponent(searchCase.naive)}`],
    headers: await fixtures.authorization(BULK_USER_EMAIL),
  }),
  check: async (fixtures) => {
    const [userId] = await fixtures.userIdsOf([BULK_USER_EMAIL]);
    const { rows } = await fixtures.sql.query<{ hits: string }>(
      `SELECT count(*) AS hits FROM mail_search WHERE user_id = $1 AND document @@ phraseto_tsquery('simple', $2)`,
      [userId, searchableText(searchCase.words)],
    );
    return `${count(Number(rows[0].hits))} of the bulk user's mails match`;
  },
}));
