import { Pool } from 'pg';
import { databaseConfig, loadConfig } from '@letterbox/config';
import { primaryOnly } from '@letterbox/db';
import { MailListQuery, PerUserLimit, parseSearchQuery } from '@letterbox/mail';
import { BULK_USER_EMAIL } from '../data/bench-accounts';
import { naiveSearch, type NaiveSearchRequest } from '../naive/naive-search';

/**
 * The database side of one search, one request at a time: the read API's first page
 * (MailListQuery.page, mailbox counters included) walked first and planned, against the naive
 * search's statement, interleaved, as the bulk user (bench/prepare.ts). Prints medians.
 *
 *   node -r @swc-node/register bench/measure/search-statements.ts 'from:weekly' '{"from":"weekly"}'
 *
 * The second argument is the naive request (bench/naive/naive-search.ts). ROUNDS (20) sets how many.
 */
async function main(): Promise<void> {
  const [q, naiveJson] = process.argv.slice(2);
  if (!q || !naiveJson) throw new Error('usage: search-statements.ts <q> <naive request as JSON>');
  const { DATABASE_URL } = loadConfig(databaseConfig);
  // As the read API's pools and the naive server's are: ours without JIT, the naive one with the server's default.
  const ours = new Pool({ connectionString: DATABASE_URL, max: 1, options: '-c jit=off' });
  const naive = new Pool({ connectionString: DATABASE_URL, max: 1 });
  try {
    const { rows } = await ours.query<{ id: number }>('SELECT id FROM users WHERE email = $1', [BULK_USER_EMAIL]);
    const userId = rows[0].id;
    const limit = new PerUserLimit({ perUser: 1, waitMs: 1000 });
    const ways = {
      walk: new MailListQuery(primaryOnly(ours), limit, { shareOf: async () => 1 }),
      planned: new MailListQuery(primaryOnly(ours), limit, { shareOf: async () => 0 }),
    };
    const request = JSON.parse(naiveJson, (key, value) => (key === 'after' || key === 'before' ? new Date(value) : value)) as NaiveSearchRequest;
    const times: Record<'walk' | 'planned' | 'naive', number[]> = { walk: [], planned: [], naive: [] };
    const timed = async (into: number[], run: () => Promise<unknown>) => {
      const started = process.hrtime.bigint();
      await run();
      into.push(Number(process.hrtime.bigint() - started) / 1e6);
    };
    for (let round = 0; round < Number(process.env.ROUNDS ?? 20); round++) {
      for (const way of ['walk', 'planned'] as const) {
        await timed(times[way], () => ways[way].page(userId, { filter: { search: parseSearchQuery(q) }, order: 'desc', limit: 20 }));
      }
      await timed(times.naive, () => naiveSearch(naive, userId, request, 20));
    }
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)].toFixed(1);
    console.log(`${q}: median ms, walk ${median(times.walk)}, planned ${median(times.planned)}, naive ${median(times.naive)}`);
  } finally {
    await Promise.all([ours.end(), naive.end()]);
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
