import assert from 'node:assert/strict';
import { test } from 'node:test';
import { safeFileName, uniqueFileNames } from './archive-file-names';

test('a long name is cut below 200 bytes of UTF-8, between characters, keeping its extension', () => {
  const cut = safeFileName(`${'보고서'.repeat(40)}.pdf`, 'fallback');
  assert.ok(Buffer.byteLength(cut) <= 200, `${Buffer.byteLength(cut)} bytes`);
  assert.match(cut, /^(보고서)+보?고?\.pdf$/u);
});

test('names made only of separators, dots and spaces fall back; a trailing separator leaves the segment before it', () => {
  for (const name of ['', '/', '..', ' . ', '\\\\']) assert.equal(safeFileName(name, 'attachment 2'), 'attachment 2', name);
  assert.equal(safeFileName('photos/..', 'attachment 2'), 'photos');
});

test('decomposed and composed forms of a name are one name', () => {
  assert.deepEqual(uniqueFileNames(['café.txt', 'café.txt'.normalize('NFD')].map((name) => safeFileName(name, 'x'))), ['café.txt', 'café (2).txt']);
});

test('a thousand parts of one name are numbered up to (1000)', () => {
  const names = uniqueFileNames(Array.from({ length: 1000 }, () => 'scan.jpg'));
  assert.equal(new Set(names).size, 1000);
  assert.equal(names[999], 'scan (1000).jpg');
});
