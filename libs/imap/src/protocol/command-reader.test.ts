import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CommandReader, type ReaderEvent } from './command-reader';

function reader(limits = { maxLineBytes: 64, maxLiteralBytes: 32, maxCommandBytes: 128 }) {
  const events: ReaderEvent[] = [];
  const wanted: number[] = [];
  const commandReader = new CommandReader(limits, { event: (event) => events.push(event), literalWanted: (size) => wanted.push(size) });
  return { events, wanted, push: (text: string) => commandReader.push(Buffer.from(text)), commandReader };
}

const lines = (events: ReaderEvent[]) => events.map((event) => (event.kind === 'command' ? event.command.lines : event));

describe('CommandReader', () => {
  test('reads commands split anywhere, and several in one chunk', () => {
    const { events, push } = reader();
    for (const char of 'a1 NOOP\r\n') push(char);
    push('a2 CAPABILITY\r\na3 LOGOUT\r\n');
    assert.deepEqual(lines(events), [['a1 NOOP'], ['a2 CAPABILITY'], ['a3 LOGOUT']]);
  });

  test('a synchronizing literal asks for the continuation; its bytes, split across chunks, are kept whole', () => {
    const { events, wanted, push } = reader();
    push('a1 LOGIN {5}\r\n');
    assert.deepEqual(wanted, [5]);
    assert.equal(events.length, 0);
    push('al');
    push('ice "pw"\r\n');
    assert.equal(events.length, 1);
    const [event] = events;
    assert.equal(event.kind, 'command');
    assert.deepEqual(event.kind === 'command' && event.command.lines, ['a1 LOGIN {5}', ' "pw"']);
    assert.deepEqual(event.kind === 'command' && event.command.literals.map(String), ['alice']);
  });

  test('a LITERAL+ literal does not ask; a literal may hold CRLF', () => {
    const { events, wanted, push } = reader();
    push('a1 X {4+}\r\n\r\n\r\n {0}\r\n\r\n');
    assert.deepEqual(wanted, [0]);
    assert.equal(events.length, 1);
    assert.deepEqual(events[0].kind === 'command' && events[0].command.literals.map(String), ['\r\n\r\n', '']);
  });

  test("a literal8 ~{n} (BINARY's APPEND) is read as a literal, NULs and all", () => {
    const { events, wanted, push } = reader();
    push('a1 APPEND INBOX ~{3}\r\n');
    assert.deepEqual(wanted, [3]);
    push('a\0b\r\na2 APPEND INBOX ~{1+}\r\n\0\r\n');
    assert.deepEqual(lines(events), [
      ['a1 APPEND INBOX ~{3}', ''],
      ['a2 APPEND INBOX ~{1+}', ''],
    ]);
    assert.deepEqual(events[0].kind === 'command' && events[0].command.literals, [Buffer.from('a\0b')]);
    assert.deepEqual(wanted, [3], 'a non-synchronizing literal8 asks nothing');
  });

  test('a line past the limit is refused with its tag, discarded without being held, and the next command read', () => {
    const { events, push } = reader();
    push(`a1 NOOP ${'x'.repeat(50)}`);
    push('y'.repeat(1000));
    push('\r\na2 NOOP\r\n');
    assert.deepEqual(lines(events), [{ kind: 'refused', tag: 'a1', reason: 'line longer than 64 bytes', closing: false }, ['a2 NOOP']]);
  });

  test('a synchronizing literal past the limit is refused and not waited for; a non-synchronizing one ends the reading', () => {
    const sync = reader();
    sync.push('a1 APPEND INBOX {33}\r\na2 NOOP\r\n');
    assert.deepEqual(sync.wanted, []);
    assert.deepEqual(lines(sync.events), [{ kind: 'refused', tag: 'a1', reason: 'literal of 33 bytes, more than 32', closing: false }, ['a2 NOOP']]);
    const nonSync = reader();
    nonSync.push(`a1 APPEND INBOX {33+}\r\n${'a2 NOOP\r\n'.repeat(4)}`);
    assert.deepEqual(lines(nonSync.events), [{ kind: 'refused', tag: 'a1', reason: 'literal of 33 bytes, more than 32', closing: true }]);
  });

  test('literals that add up past the command limit are refused', () => {
    const { events, push } = reader();
    push(`a1 X {30+}\r\n${'z'.repeat(30)} {30+}\r\n${'z'.repeat(30)} {30+}\r\n${'z'.repeat(30)} {30}\r\n`);
    assert.deepEqual(lines(events), [{ kind: 'refused', tag: 'a1', reason: 'command longer than 128 bytes', closing: false }]);
  });

  test('discardPending forgets the rest of the chunk being read (STARTTLS)', () => {
    const events: ReaderEvent[] = [];
    const commandReader: CommandReader = new CommandReader(
      { maxLineBytes: 64, maxLiteralBytes: 32, maxCommandBytes: 128 },
      {
        event: (event) => {
          events.push(event);
          commandReader.discardPending();
        },
        literalWanted: () => undefined,
      },
    );
    commandReader.push(Buffer.from('a1 STARTTLS\r\na2 LOGIN a b\r\n'));
    assert.deepEqual(lines(events), [['a1 STARTTLS']]);
  });

  test('discardPending forgets a half-read command', () => {
    const { events, push, commandReader } = reader();
    push('a1 LOGIN {5}\r\nal');
    commandReader.discardPending();
    push('a2 NOOP\r\n');
    assert.deepEqual(lines(events), [['a2 NOOP']]);
  });
});
