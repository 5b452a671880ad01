import { ALICE_EMAIL, BENCH_PASSWORD, BULK_USER_EMAIL } from '../data/bench-accounts';
import type { BenchFixtures } from '../harness/bench-fixtures';
import type { ChildService } from '../harness/child-service';
import { IMAP_BENCH_PORT, IMAP_BENCH_SESSIONS_PER_USER, startImapApp } from '../harness/imap-app';
import { INGEST_BENCH_PREFIX, IngestStack } from '../harness/ingest-stack';
import { processEnvironment } from '../harness/process-tree';
import type { ProcedureOutcome } from '../harness/procedure-outcome';
import { count, megabytes, milliseconds } from '../report/format';
import { measureFetchAll, type FetchAllFigures } from './imap-fetch-all';
import { measureHeaderFetch, type HeaderFetchFigures } from './imap-header-fetch';
import { closeSessions, measureIdleSessions, type IdleSessionsFigures, type IdlingSession } from './imap-idle-sessions';
import { measureNewMailReach, NEW_MAIL_TIMEOUT_MS, type NewMailRound } from './imap-new-mail';
import type { ProcedureScenario } from './scenario';

/** Sessions that stay idling for the new mail's rounds, out of the thousand. */
const NEW_MAIL_SESSIONS = 100;

export const imapScenario: ProcedureScenario = {
  kind: 'procedure',
  name: 'imap',
  title: "IMAP: memory per idle session, a million envelopes in one FETCH, a 22 MB mail's header, a new mail to 100 idling sessions",
  summary:
    `starts the built IMAP app (127.0.0.1:${IMAP_BENCH_PORT}, ${IMAP_BENCH_SESSIONS_PER_USER} sessions per user allowed, on the read API's storage) and, for the new mail, ` +
    `the ingest app (checks of senders off), its worker and mock providers on queue prefix ${INGEST_BENCH_PREFIX}; ` +
    `${IMAP_BENCH_SESSIONS_PER_USER} sessions of inbox-1 idling in INBOX, ${NEW_MAIL_SESSIONS} of them told of 5 new mails, ` +
    `UID FETCH 1:* (FLAGS ENVELOPE) over ${BULK_USER_EMAIL}'s INBOX, BODY.PEEK[HEADER] of ${ALICE_EMAIL}'s 4 KB and 22 MB mails; a few minutes`,
  run: runImap,
};

interface ImapFigures {
  idle?: IdleSessionsFigures;
  newMail?: NewMailRound[];
  fetchAll?: FetchAllFigures;
  headers?: HeaderFetchFigures[];
}

async function runImap(fixtures: BenchFixtures): Promise<ProcedureOutcome> {
  const startedAt = new Date().toISOString();
  const notes: string[] = [];
  const figures: ImapFigures = {};
  const stack = await IngestStack.open();
  try {
    const imap = await startImapApp({ storage: storageOfReadApi((await fixtures.api.health()).pid), queuePrefix: INGEST_BENCH_PREFIX });
    try {
      await measureAll(imap, stack, figures, notes);
    } finally {
      const exit = imap.unexpectedExit();
      if (exit) notes.push(`the IMAP app ${exit}`);
      await imap.stop();
    }
  } finally {
    notes.push(...(await stack.close()));
  }
  return { scenario: 'imap', title: imapScenario.title, startedAt, notes, table: tableOf(figures), data: figures };
}

/** Each measure in turn, the million-mail FETCH last (its garbage would be in the others' figures); one that fails is noted and the next still runs (a command the app lacks fails only its own). */
async function measureAll(imap: ChildService, stack: IngestStack, figures: ImapFigures, notes: string[]): Promise<void> {
  const recipient = stack.recipients[0];
  let sessions: IdlingSession[] = [];
  const attempt = async (what: string, measure: () => Promise<void>) => {
    try {
      await measure();
    } catch (error) {
      notes.push(`${what} FAILED: ${(error as Error).message}`);
    }
  };
  try {
    await attempt('idle sessions', async () => {
      const measured = await measureIdleSessions(imap.pid, IMAP_BENCH_SESSIONS_PER_USER, recipient.email, BENCH_PASSWORD);
      figures.idle = measured.figures;
      sessions = measured.sessions;
    });
    closeSessions(sessions.splice(NEW_MAIL_SESSIONS));
    if (sessions.length > 0) await attempt('new mail', async () => void (figures.newMail = await measureNewMailReach(stack, sessions, recipient)));
  } finally {
    closeSessions(sessions);
  }
  await attempt('header fetch', async () => void (figures.headers = await measureHeaderFetch(imap.pid, stack.sql, ALICE_EMAIL, BENCH_PASSWORD)));
  await attempt('UID FETCH 1:*', async () => void (figures.fetchAll = await measureFetchAll(imap.pid, BULK_USER_EMAIL, BENCH_PASSWORD)));
}

/** The read API's storage and demo settings, so the IMAP app reads the blobs the bench data was stored to. */
function storageOfReadApi(readApiPid: number): Record<string, string> {
  return Object.fromEntries(
    Object.entries(processEnvironment(readApiPid)).filter(([name]) => name === 'LETTERBOX_DEMO' || name.startsWith('STORAGE_') || name.startsWith('S3_')),
  );
}

function tableOf({ idle, newMail, fetchAll, headers }: ImapFigures): ProcedureOutcome['table'] {
  const rows: string[][] = [];
  if (idle) {
    rows.push([
      `${count(idle.sessions)} sessions idling in INBOX`,
      `RSS ${megabytes(idle.rssBeforeBytes)} → ${megabytes(idle.rssAfterBytes)} MB: ${count(idle.bytesPerSession / 1024)} KB a session`,
      `opened in ${idle.openSeconds.toFixed(1)} s`,
    ]);
  }
  for (const round of newMail ?? []) {
    const mail = `202 in ${milliseconds(round.ackMs)} ms, stored at ${milliseconds(round.storedMs)} ms`;
    rows.push(
      round.existsMs && round.storedToAllToldMs !== undefined
        ? [
            `new mail ${round.round}: ${round.told} of ${round.sessions} idling sessions told`,
            `last told ${milliseconds(round.existsMs.max)} ms after the POST (p50 ${milliseconds(round.existsMs.p50)})`,
            `${mail}, stored → last told ${milliseconds(round.storedToAllToldMs)} ms`,
          ]
        : [`new mail ${round.round}: none of ${round.sessions} idling sessions told`, `no * n EXISTS within ${NEW_MAIL_TIMEOUT_MS / 1000} s`, mail],
    );
  }
  if (fetchAll) {
    rows.push([
      `UID FETCH 1:* (FLAGS ENVELOPE), ${count(fetchAll.messages)} mails`,
      `last response ${(fetchAll.lastResponseMs / 1000).toFixed(1)} s (first ${milliseconds(fetchAll.firstResponseMs)} ms), peak RSS ${megabytes(fetchAll.peakRssBytes)} MB (${megabytes(fetchAll.rssBeforeBytes)} before)`,
      `${count(fetchAll.responseLines)} lines, ${megabytes(fetchAll.responseBytes)} MB; SELECT ${milliseconds(fetchAll.selectMs)} ms`,
    ]);
  }
  for (const header of headers ?? []) {
    rows.push([
      `BODY.PEEK[HEADER] of the ${megabytes(header.mailBytes) === '0' ? `${count(header.mailBytes / 1024)} KB` : `${megabytes(header.mailBytes)} MB`} mail`,
      `${count(header.fetchesPerSecond)} fetches/s, p50 ${milliseconds(header.ms.p50)} ms, p99 ${milliseconds(header.ms.p99)} ms`,
      `${count(header.answerBytes)} bytes an answer; read ${count(header.readCallBytesPerFetch)} bytes a fetch (${count(header.diskBytesPerFetch)} from disk)`,
    ]);
  }
  return { header: ['measure', 'figure', 'detail'], rows };
}
