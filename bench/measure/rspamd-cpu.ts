import { readdirSync } from 'node:fs';
import { RspamdScanner } from '@letterbox/ingest';
import { SignedNewsletters } from '../data/signed-newsletters';
import { commandLineOf, treeCpuSeconds } from '../harness/process-tree';

/**
 * rspamd's CPU for each message of the ingest bench (issue 32): the bench's signed newsletters
 * scored through RspamdScanner, as the spam stage asks, and the CPU its scanner processes
 * spent meanwhile, read from /proc; and the CPU RspamdScanner spent asking, the spam stage's
 * own share. The spam stage's cost on the ingest figures is the two per message; compare
 * rspamd's configurations by restarting it between runs, alternating:
 *
 *   node -r @swc-node/register bench/measure/rspamd-cpu.ts [messages] [rspamd url]
 */
const MESSAGES = Number(process.argv[2] ?? 3000);
const RSPAMD_URL = process.argv[3] ?? 'http://127.0.0.1:11333';
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
  const cpuBefore = scannerCpuMs();
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
  const clientCpu = process.cpuUsage(clientCpuBefore);
  const clientCpuMs = (clientCpu.user + clientCpu.system) / 1000;
  const scored = verdicts.filter(Boolean).length;
  if (scored < MESSAGES) throw new Error(`rspamd scored ${scored} of ${MESSAGES} messages: is it running at ${RSPAMD_URL}?`);
  process.stdout.write(
    `${MESSAGES} messages in ${Date.now() - askedAt} ms: rspamd spent ${(cpuMs / MESSAGES).toFixed(2)} ms of CPU a message, ` +
      `RspamdScanner (this process) ${(clientCpuMs / MESSAGES).toFixed(2)} ms\n`,
  );
}

/** CPU time of rspamd's scanner ("normal") processes so far, in milliseconds. */
function scannerCpuMs(): number {
  const scanners = readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map(Number)
    .filter((pid) => commandLineOf(pid)[0]?.startsWith('rspamd: normal'));
  return scanners.reduce((sum, pid) => sum + treeCpuSeconds(pid), 0) * 1000;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exitCode = 1;
});
