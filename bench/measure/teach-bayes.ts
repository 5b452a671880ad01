import { loadConfig, redisConfig, spamCheckConfig } from '@letterbox/config';
import { workerConnection } from '@letterbox/queue';
import { unlinkKeys } from '@letterbox/testing';
import { ENGLISH_WORDS, seeded, zipfWord } from '../data/search-vocabulary';
import { bayesNote } from '../harness/rspamd-bayes';

/**
 * Gives rspamd's Bayes classifier what a mail server in use has: it classifies only once it has
 * learned min_learns (200 by default) messages of each kind, and a new install has learned none,
 * so the spam stage's figures on a new machine leave out about half of rspamd's cost (its Redis
 * look-ups of each message's tokens). `teach` learns generated messages through the controller, as
 * users' reports do; `forget` removes what rspamd keeps of Bayes in Redis (its keys in rspamd 3.4),
 * which the tests' rspamd shares on this machine: forget after measuring.
 *
 *   LETTERBOX_DEMO=true node -r @swc-node/register bench/measure/teach-bayes.ts teach [messages of each kind, 250]
 *   LETTERBOX_DEMO=true node -r @swc-node/register bench/measure/teach-bayes.ts forget
 */
const config = loadConfig({ ...spamCheckConfig, ...redisConfig });
const SPAM_WORDS = ['cheap', 'pills', 'casino', 'winner', 'prize', 'claim', 'bitcoin', 'urgent', 'offer', 'free'];

async function teach(count: number): Promise<void> {
  if (!Number.isInteger(count) || count < 1) throw new Error('messages of each kind must be a whole number above 0');
  const random = seeded(32);
  for (let index = 0; index < count; index++) {
    await learn('spam', index, bodyOf(random, SPAM_WORDS));
    await learn('ham', index, bodyOf(random));
  }
  const redis = workerConnection(config);
  try {
    // Fewer than were taught once Bayes classifies: it learns no more of what it already classes so.
    process.stdout.write(`${await bayesNote(redis)}; forget them after measuring (teach-bayes.ts forget)\n`);
  } finally {
    redis.disconnect();
  }
}

/** 80 words of the bench's vocabulary, every fourth one of `marked` when given. */
function bodyOf(random: () => number, marked: string[] = []): string {
  const words = Array.from({ length: 80 }, (_, index) =>
    index % 4 === 0 && marked.length > 0 ? marked[(index / 4) % marked.length] : zipfWord(ENGLISH_WORDS, random),
  );
  return words.join(' ');
}

async function learn(kind: 'spam' | 'ham', index: number, body: string): Promise<void> {
  const message = [
    `From: ${kind}-${index}@${kind}.example`,
    'To: bayes@letterbox.test',
    `Subject: ${body.split(' ').slice(0, 4).join(' ')}`,
    `Message-ID: <teach-bayes-${kind}-${index}-${Date.now()}@${kind}.example>`,
    `Date: ${new Date().toUTCString()}`,
    '',
    body,
    '',
  ].join('\r\n');
  const response = await fetch(new URL(kind === 'spam' ? '/learnspam' : '/learnham', config.RSPAMD_CONTROLLER_URL), {
    method: 'POST',
    headers: { password: config.RSPAMD_PASSWORD },
    body: message,
  });
  // 208: learned before, which is no failure.
  if (!response.ok && response.status !== 208) throw new Error(`rspamd would not learn ${kind} ${index}: ${response.status} ${await response.text()}`);
}

async function forget(): Promise<void> {
  const redis = workerConnection(config);
  try {
    let removed = 0;
    for (const pattern of ['RS*', 'BAYES_SPAM_keys', 'BAYES_HAM_keys', 'learned_ids']) removed += await unlinkKeys(redis, pattern);
    process.stdout.write(`removed ${removed} Redis keys of rspamd's Bayes statistics\n`);
  } finally {
    redis.disconnect();
  }
}

const [command, count] = process.argv.slice(2);
const run =
  command === 'teach'
    ? teach(Number(count ?? 250))
    : command === 'forget'
      ? forget()
      : Promise.reject(new Error('usage: teach-bayes.ts teach [count] | forget'));
run.catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
