import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { editorText } from './appended-drafts';

describe("an appended draft's text as the editor holds it", () => {
  test('the line ending that ends the last line goes; blank lines the user left stay; lines end with \\n', () => {
    assert.equal(editorText('Hello\r\n'), 'Hello');
    assert.equal(editorText('Hello'), 'Hello');
    assert.equal(editorText('Hello\n'), 'Hello');
    assert.equal(editorText('Hello\r\nWorld\r\n\r\n'), 'Hello\nWorld\n');
    assert.equal(editorText('\r\n'), '');
  });
});
