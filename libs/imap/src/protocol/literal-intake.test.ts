import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { describe, test } from 'node:test';
import { setImmediate as tick } from 'node:timers/promises';
import { CommandReader, type RawCommand, type ReaderEvent } from './command-reader';
import type { LiteralRefusal, LiteralRequest } from './literal-intake';
import { ImapCommandError } from './tokens';

const LIMITS = { maxLineBytes: 64, maxLiteralBytes: 32, maxCommandBytes: 128 };
const MAX_APPEND = 20 * 1024 * 1024;

/** A reader whose APPEND takes its message literal (the one after the mailbox) as a stream. */
function appendReader(refusal?: LiteralRefusal) {
  const events: ReaderEvent[] = [];
  const wanted: number[] = [];
  const requests: LiteralRequest[] = [];
  const flow = { held: false, holds: 0 };
  const commandReader = new CommandReader(LIMITS, {
    event: (event) => events.push(event),
    literalWanted: (size) => wanted.push(size),
    literalIntake: (request) => {
      if (!/^\S+ APPEND \S+ /i.test(request.lines[0])) return undefined;
      requests.push(request);
      return { maxBytes: MAX_APPEND, admit: async () => refusal };
    },
    hold: (held) => {
      flow.held = held;
      if (held) flow.holds++;
    },
  });
  return { events, wanted, requests, flow, commandReader, push: (text: string | Buffer) => commandReader.push(Buffer.from(text)) };
}

function streamedOf(event: ReaderEvent | undefined): RawCommand & { streamed: NonNullable<RawCommand['streamed']> } {
  assert.equal(event?.kind, 'command');
  const command = event.kind === 'command' ? event.command : undefined;
  assert.ok(command?.streamed, 'the command is handed over at its streamed literal');
  return command as RawCommand & { streamed: NonNullable<RawCommand['streamed']> };
}

describe('CommandReader with a literal intake (APPEND)', () => {
  test('asks for a synchronizing literal once admitted, hands the command over at it, streams its bytes and reads its rest', async () => {
    const { events, wanted, requests, flow, push } = appendReader();
    push('a1 APPEND Drafts (\\Draft) {42}\r\n');
    assert.deepEqual(wanted, [], 'no + before the intake admits the literal');
    assert.equal(flow.held, true);
    push('From: a@x.test\r\n');
    await tick();
    assert.deepEqual(wanted, [42]);
    assert.equal(flow.held, false);
    assert.deepEqual(
      requests.map(({ size, synchronizing }) => ({ size, synchronizing })),
      [{ size: 42, synchronizing: true }],
    );
    const command = streamedOf(events[0]);
    assert.deepEqual(command.lines, ['a1 APPEND Drafts (\\Draft) ']);
    assert.equal(command.streamed.size, 42);
    push('Subject: hi\r\n\r\nbody line\r\n\r\na2 NOOP\r\n');
    const message = Buffer.concat(await command.streamed.stream.toArray()).toString();
    assert.equal(message, 'From: a@x.test\r\nSubject: hi\r\n\r\nbody line\r\n');
    assert.deepEqual(await command.streamed.rest, { lines: [''], literals: [] });
    assert.deepEqual(
      events.slice(1).map((event) => event.kind === 'command' && event.command.lines),
      [['a2 NOOP']],
    );
  });

  test("takes APPEND's literal8 ~{n} as a stream too, its marker taken off the line", async () => {
    const { events, wanted, push } = appendReader();
    push('a1 APPEND INBOX ~{5}\r\n');
    await tick();
    assert.deepEqual(wanted, [5]);
    const command = streamedOf(events[0]);
    assert.deepEqual(command.lines, ['a1 APPEND INBOX ']);
    push('a\0b\0c\r\n');
    assert.ok(Buffer.concat(await command.streamed.stream.toArray()).equals(Buffer.from('a\0b\0c')));
    assert.deepEqual(await command.streamed.rest, { lines: [''], literals: [] });
  });

  test('streams a 10 MB literal holding the input while its consumer is behind, far past the in-memory literal limit', async () => {
    const { events, flow, push, commandReader } = appendReader();
    const size = 10 * 1024 * 1024;
    push(`a1 APPEND INBOX {${size}+}\r\n`);
    await tick();
    const { streamed } = streamedOf(events[0]);
    const chunk = Buffer.alloc(16 * 1024, 'x');
    let sent = 0;
    let largestBuffered = 0;
    const hash = createHash('sha256');
    const reading = (async () => {
      for await (const piece of streamed.stream) {
        hash.update(piece as Buffer);
        await tick();
      }
    })();
    while (sent < size) {
      if (flow.held) {
        await tick();
        continue;
      }
      commandReader.push(chunk);
      sent += chunk.length;
      largestBuffered = Math.max(largestBuffered, streamed.stream.readableLength);
    }
    push('\r\n');
    await reading;
    assert.equal(hash.digest('hex'), createHash('sha256').update(Buffer.alloc(size, 'x')).digest('hex'));
    assert.ok(flow.holds > 1, 'the input was held while the consumer was behind');
    assert.ok(largestBuffered <= 128 * 1024, `the stream buffered ${largestBuffered} bytes`);
    assert.deepEqual(await streamed.rest, { lines: [''], literals: [] });
  });

  test('a consumer that gives up lets go of the input: the rest of the literal is read past, and the next command read', async () => {
    const { events, flow, push } = appendReader();
    push('a1 APPEND INBOX {300000+}\r\n');
    await tick();
    const { streamed } = streamedOf(events[0]);
    push(Buffer.alloc(200_000, 'x'));
    assert.equal(flow.held, true, 'held: nobody reads the stream');
    streamed.stream.destroy();
    await tick();
    assert.equal(flow.held, false);
    push(Buffer.alloc(100_000, 'x'));
    push('\r\na2 NOOP\r\n');
    assert.deepEqual(await streamed.rest, { lines: [''], literals: [] });
    assert.deepEqual(events.at(-1), { kind: 'command', command: { lines: ['a2 NOOP'], literals: [] } });
  });

  test('refuses a synchronizing literal unread: NO [OVERQUOTA], no +, and the next command is read', async () => {
    const { events, wanted, push } = appendReader({ code: 'OVERQUOTA', text: 'the mailbox is full' });
    push('a1 APPEND INBOX {20}\r\n');
    await tick();
    push('a2 NOOP\r\n');
    assert.deepEqual(wanted, []);
    assert.deepEqual(events, [
      { kind: 'refused', tag: 'a1', reason: 'the mailbox is full', closing: false, code: 'OVERQUOTA' },
      { kind: 'command', command: { lines: ['a2 NOOP'], literals: [] } },
    ]);
  });

  test('refuses a literal past the command maximum with TOOBIG without asking the intake', async () => {
    const { events, push } = appendReader();
    push(`a1 APPEND INBOX {${MAX_APPEND + 1}}\r\n`);
    await tick();
    assert.equal(events[0].kind === 'refused' && events[0].code, 'TOOBIG');
  });

  test('skips a refused LITERAL+ literal and the rest of its command when small, closes when not', async () => {
    const small = appendReader({ code: 'OVERQUOTA', text: 'full' });
    small.push('a1 APPEND INBOX {10+}\r\n0123456789 {3+}\r\n');
    await tick();
    small.push('a2 NOOP\r\n');
    assert.deepEqual(small.events, [
      { kind: 'refused', tag: 'a1', reason: 'full', closing: false, code: 'OVERQUOTA' },
      { kind: 'refused', tag: undefined, reason: 'a refused command went on with another literal', closing: true },
    ]);

    const skipped = appendReader({ code: 'OVERQUOTA', text: 'full' });
    skipped.push('a1 APPEND INBOX {10+}\r\n01234');
    await tick();
    skipped.push('56789\r\na2 NOOP\r\n');
    assert.deepEqual(skipped.events.at(-1), { kind: 'command', command: { lines: ['a2 NOOP'], literals: [] } });
    assert.equal(skipped.events.length, 2);

    const large = appendReader({ code: 'OVERQUOTA', text: 'full' });
    large.push(`a1 APPEND INBOX {${LIMITS.maxLiteralBytes + 1}+}\r\n`);
    await tick();
    assert.deepEqual(large.events, [{ kind: 'refused', tag: 'a1', reason: 'full', closing: true, code: 'OVERQUOTA' }]);
  });

  test('keeps the in-memory limits for every other literal, and fails a streamed literal when the connection ends', async () => {
    const { events, push, commandReader } = appendReader();
    push('a1 LOGIN {33}\r\n');
    assert.deepEqual(events, [{ kind: 'refused', tag: 'a1', reason: 'literal of 33 bytes, more than 32', closing: false }]);
    push('a2 APPEND INBOX {100}\r\nsome');
    await tick();
    const { streamed } = streamedOf(events[1]);
    commandReader.end();
    await assert.rejects(streamed.stream.toArray(), ImapCommandError);
    await assert.rejects(streamed.rest, ImapCommandError);
  });
});
