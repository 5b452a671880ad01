import path from 'node:path';

/**
 * Checks the settings of every app `npm run start:prod` starts before any of them is: each
 * problem (a missing secret, a default pointing at the demo, a bad value) is named once, with
 * the apps it stops. Exits 1 when there is any.
 */
const APPS: Record<string, [file: string, loader: string]> = {
  'read-api': ['read-api.config', 'loadReadApiConfig'],
  'send-api': ['send-api.config', 'loadSendApiConfig'],
  'delivery-worker': ['delivery-worker.config', 'loadDeliveryWorkerConfig'],
  ingest: ['ingest.config', 'loadIngestConfig'],
  'ingest-worker': ['ingest-worker.config', 'loadIngestWorkerConfig'],
  'notify-worker': ['notify-worker.config', 'loadNotifyWorkerConfig'],
  webmail: ['webmail.config', 'loadWebmailConfig'],
  imap: ['imap.config', 'loadImapConfig'],
  // Started only with its certificate (start-prod.sh).
  ...(process.env.SUBMISSION_TLS_CERT ? { submission: ['submission.config', 'loadSubmissionConfig'] as [string, string] } : {}),
};

async function main(): Promise<void> {
  const problems = new Map<string, string[]>();
  for (const [app, [file, loader]] of Object.entries(APPS)) {
    const module = (await import(path.resolve(__dirname, '../apps', app, 'src', file))) as Record<string, () => unknown>;
    try {
      module[loader]();
    } catch (error) {
      if (!(error instanceof Error) || error.constructor.name !== 'ConfigError') throw error;
      for (const line of error.message.split('\n').slice(1)) problems.set(line.trim(), [...(problems.get(line.trim()) ?? []), app]);
    }
  }
  if (problems.size === 0) return;
  const lines = [...problems].map(([problem, apps]) => `  ${problem} [${apps.join(', ')}]`);
  process.stderr.write(`Letterbox cannot start in production; set these settings (see README, "Operating in production"):\n${lines.join('\n')}\n`);
  process.exitCode = 1;
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
