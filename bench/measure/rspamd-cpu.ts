import { loadConfig, redisConfig, spamCheckConfig } from '@letterbox/config';
import { RspamdScanner } from '@letterbox/ingest';
import { workerConnection } from '@letterbox/queue';
import { SignedNewsletters } from '../data/signed-newsletters';
import { bayesNote } from '../harness/rspamd-bayes';
import { commandLineOf, processIds, redisServerPid, treeCpuSeconds } from '../harness/process-tree';

/**
 * rspamd's CPU for each message of the ingest bench (issue 32): the bench's signed newsletters
 * scored through RspamdScanner, as the spam stage asks, and the CPU its scanner processes
 * spent meanwhile, read from /proc; the CPU of the Redis server it keeps its Bayes statistics
 * in (REDIS_URL's, as scripts/rspamd.sh configures it); and the CPU RspamdScanner spent asking,
 * the spam stage's own share. The spam stage's cost on the ingest figures is the three per
 * message. Bayes classifies only once it has learned rspamd's min_learns (200 by default) of
 * each kind, and then costs about as much as the rest of rspamd's rules: the figures say how
 * many it has learned. Compare rspamd's configurations by restarting it between runs, alternating:
 *
 *   LETTERBOX_DEMO=true node -r @swc-node/register bench/measure/rspamd-cpu.ts [messages] [rspamd url]
 *
 * (LETTERBOX_DEMO: the demo's settings, refused otherwise.) bench/measure/teach-bayes.ts teaches Bayes, and forgets.
 */
const MESSAGES = Number(process.argv[2] ?? 3000);
const config = loadConfig({ ...spamCheckConfig, ...redisConfig });
const RSPAMD_URL = process.argv[3] ?? config.RSPAMD_URL;
/** Four at once, as issue 32's earlier figures were taken (the worker asks up to SPAM_CHECK_CONCURRENCY, 16 by default). */
const CONCURRENCY = 4;
const RECIPIENTS = Array.from({ length: 50 }, (_, index) => `rspamd-measure-${index}@letterbox.test`);

async function main(): Promise<void> {
  if (!Number.isInteger(MESSAGES) || MESSAGES < 1) throw new Error('messages must be a whole number above 0');
  const newsletters = await SignedNewsletters.for(RECIPIENTS);
  const started = Date.now();
  // Signed beforehand, so that the client's CPU below is only its asking.
  const messages = Array.from({ length: MESSAGES }, (_, index) => {
    const recipient = RECIPIENTS[index % RECIPIENTS.length];
    return { recipient, bytes: Buffer.from(newsletters.body(recipient, `rspamd-measure-${started}-${index}@pass.example`)) };
  });
  const scanner = new RspamdScanner({ url: RSPAMD_URL, concurrency: CONCURRENCY, timeoutMs: 60_000 });
  const redisPort = Number(new URL(config.REDIS_URL).port || 6379);
  const redisPid = redisServerPid(redisPort);
  if (redisPid === undefined) throw new Error(`no redis-server on port ${redisPort} on this machine: REDIS_URL names the one rspamd uses`);
  const cpuBefore = scannerCpuMs();
  const redisCpuBefore = treeCpuSeconds(redisPid);
  const clientCpuBefore = process.cpuUsage();
  const askedAt = Date.now();
  const verdicts = await Promise.all(
    messages.map(({ recipient, bytes }, index) =>
      scanner.check(bytes, {
        queueId: `measure-${index}`,
        ip: '127.0.0.1',
        helo: 'mail.pass.example',
        mailFrom: 'news@pass.example',
        rcptTo: [recipient],
      }),
    ),
  );
  const cpuMs = scannerCpuMs() - cpuBefore;
  const redisCpuMs = (treeCpuSeconds(redisPid) - redisCpuBefore) * 1000;
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const clientCpuMs = (clientCpu.user + clientCpu.system) / 1000;
  const scored = verdicts.filter(Boolean).length;
  if (scored < MESSAGES) throw new Error(`rspamd scored ${scored} of ${MESSAGES} messages: is it running at ${RSPAMD_URL}?`);
  const perMessage = (ms: number) => `${(ms / MESSAGES).toFixed(2)} ms`;
  process.stdout.write(
    `${MESSAGES} messages in ${Date.now() - askedAt} ms; ${await learnedByBayes()}; CPU a message: rspamd ${perMessage(cpuMs)}, ` +
      `its Redis ${perMessage(redisCpuMs)}, RspamdScanner (this process) ${perMessage(clientCpuMs)}\n`,
  );
}

async function learnedByBayes(): Promise<string> {
  const redis = workerConnection(config);
  try {
    return await bayesNote(redis);
  } finally {
    redis.disconnect();
  }
}

/** CPU time of rspamd's scanner ("normal") processes so far, in milliseconds. */
function scannerCpuMs(): number {
  const scanners = processIds().filter((pid) => commandLineOf(pid)[0]?.startsWith('rspamd: normal'));
  return scanners.reduce((sum, pid) => sum + treeCpuSeconds(pid), 0) * 1000;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
