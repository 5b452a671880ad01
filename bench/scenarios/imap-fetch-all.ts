import { IMAP_BENCH_PORT } from '../harness/imap-app';
import { ImapWireClient } from '../harness/imap-wire-client';
import { sampleTreeRss } from '../harness/rss-sampler';
import { treeRss } from './imap-idle-sessions';

export interface FetchAllFigures {
  /** The INBOX's EXISTS, and how long SELECT took to say it. */
  messages: number;
  selectMs: number;
  /** `UID FETCH 1:* (FLAGS ENVELOPE)`: to its first response line and to its completion. */
  firstResponseMs: number;
  lastResponseMs: number;
  responseLines: number;
  responseBytes: number;
  rssBeforeBytes: number;
  peakRssBytes: number;
}

/** b) Every mail of a big INBOX's flags and envelope in one command, read by a client that only counts. */
export async function measureFetchAll(imapPid: number, email: string, password: string): Promise<FetchAllFigures> {
  const client = await ImapWireClient.connect(IMAP_BENCH_PORT);
  try {
    await client.login(email, password);
    let messages = 0;
    client.onUntagged = (line) => {
      const exists = /^\* (\d+) EXISTS$/i.exec(line);
      if (exists) messages = Number(exists[1]);
    };
    const select = await client.command('SELECT INBOX');
    let firstAt: number | undefined;
    client.onUntagged = () => {
      firstAt ??= performance.now();
    };
    const rssBeforeBytes = treeRss(imapPid);
    const sampler = sampleTreeRss(imapPid);
    const started = performance.now();
    let answer;
    try {
      answer = await client.command('UID FETCH 1:* (FLAGS ENVELOPE)');
    } finally {
      sampler.stop();
    }
    return {
      messages,
      selectMs: select.ms,
      firstResponseMs: (firstAt ?? Number.NaN) - started,
      lastResponseMs: answer.ms,
      responseLines: answer.untaggedLines,
      responseBytes: answer.bytes,
      rssBeforeBytes,
      peakRssBytes: sampler.stop(),
    };
  } finally {
    client.close();
  }
}
