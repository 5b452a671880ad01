import type { Pool } from 'pg';
import { REFERENCE_BYTES, SIZE_TOLERANCE, type ReferenceSize } from '../harness/bench-fixtures';
import { IMAP_BENCH_PORT } from '../harness/imap-app';
import { ImapWireClient } from '../harness/imap-wire-client';
import { spreadOf } from '../harness/load-result';
import { readCounters } from '../harness/process-tree';

/** Fetches of each mail before the measured ones; how long each mail's header is fetched over and over, in turns. */
const WARM_UP_FETCHES = 20;
const MEASURED_MS = 6000;
const TURNS = 6;

export interface HeaderFetchFigures {
  size: ReferenceSize;
  uid: number;
  mailBytes: number;
  fetches: number;
  fetchesPerSecond: number;
  ms: { p50: number; p95: number; p99: number; max: number };
  /** One answer's bytes on the wire. */
  answerBytes: number;
  /** Read by the IMAP process per fetch: every read call (files, the database's answers, the command) and from the disk itself. */
  readCallBytesPerFetch: number;
  diskBytesPerFetch: number;
}

/** One mail's fetches so far: their times, their seconds, what the IMAP process read meanwhile. */
interface Tally {
  size: ReferenceSize;
  mail: { uid: number; size: number };
  command: string;
  answerBytes: number;
  times: number[];
  seconds: number;
  readCalls: number;
  disk: number;
}

/**
 * c) `UID FETCH n BODY.PEEK[HEADER]` of the 4 KB and the 22 MB reference mails on one session, in turns of
 * MEASURED_MS ÷ TURNS each (so both share whatever else the machine does): time per fetch, and what the
 * IMAP process read for it.
 */
export async function measureHeaderFetch(imapPid: number, sql: Pool, email: string, password: string): Promise<HeaderFetchFigures[]> {
  const client = await ImapWireClient.connect(IMAP_BENCH_PORT);
  try {
    await client.login(email, password);
    await client.command('SELECT INBOX');
    const tallies: Tally[] = [];
    for (const size of ['small', 'large'] as const) {
      const mail = await referenceUid(sql, email, size);
      const command = `UID FETCH ${mail.uid} BODY.PEEK[HEADER]`;
      let answerBytes = 0;
      for (let warm = 0; warm < WARM_UP_FETCHES; warm += 1) answerBytes = (await client.command(command)).bytes;
      tallies.push({ size, mail, command, answerBytes, times: [], seconds: 0, readCalls: 0, disk: 0 });
    }
    for (let turn = 0; turn < TURNS; turn += 1) {
      for (const tally of tallies) {
        const before = readCounters(imapPid);
        const started = performance.now();
        while (performance.now() - started < MEASURED_MS / TURNS) tally.times.push((await client.command(tally.command)).ms);
        tally.seconds += (performance.now() - started) / 1000;
        const after = readCounters(imapPid);
        tally.readCalls += after.rchar - before.rchar;
        tally.disk += after.readBytes - before.readBytes;
      }
    }
    return tallies.map(({ size, mail, answerBytes, times, seconds, readCalls, disk }) => {
      const spread = spreadOf(times);
      return {
        size,
        uid: mail.uid,
        mailBytes: mail.size,
        fetches: times.length,
        fetchesPerSecond: times.length / seconds,
        ms: { p50: spread.p50, p95: spread.p95, p99: spread.p99, max: spread.max },
        answerBytes,
        readCallBytesPerFetch: readCalls / times.length,
        diskBytesPerFetch: disk / times.length,
      };
    });
  } finally {
    client.close();
  }
}

/** The UID in the user's INBOX of the mail closest to the reference size (the demo office gives every user one of each). */
async function referenceUid(sql: Pool, email: string, size: ReferenceSize): Promise<{ uid: number; size: number }> {
  const wanted = REFERENCE_BYTES[size];
  const { rows } = await sql.query<{ uid: number; size: number }>(
    `SELECT mail_uids.uid, mails.size FROM mails
       JOIN mail_uids ON mail_uids.mail_id = mails.id
       JOIN mailboxes ON mailboxes.id = mail_uids.mailbox_id AND mailboxes.role = 'inbox'
       JOIN users ON users.id = mails.user_id
      WHERE users.email = $1
      ORDER BY abs(mails.size - $2) LIMIT 1`,
    [email, wanted],
  );
  if (rows.length === 0 || Math.abs(rows[0].size - wanted) > wanted * SIZE_TOLERANCE) {
    throw new Error(`${email}'s INBOX has no ${size} reference mail of about ${wanted} bytes; seed the demo office (bench/prepare.ts)`);
  }
  return { uid: Number(rows[0].uid), size: rows[0].size };
}
