import { runWorkerProcess } from '@letterbox/queue';
import { loadImapConfig } from './imap.config';
import { startImap, type RunningImap } from './start-imap';

let running: RunningImap | undefined;

runWorkerProcess({
  name: 'imap',
  loadConfig: () => loadImapConfig(),
  start: async (config) => (running = await startImap(config)),
  describe: (config) =>
    `IMAP on ${config.IMAP_HOST}:${running?.port}${running?.tlsPort ? ` (STARTTLS), IMAPS on ${config.IMAP_HOST}:${running.tlsPort}` : ' (no TLS: IMAP_TLS_CERT unset)'}${config.IMAP_ALLOW_PLAINTEXT ? '; sign-in without TLS allowed' : ''}`,
  inFlight: 'sessions',
});
