import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { compileSieve, runSieve, SieveScriptError, type SieveMessage } from './index';

const message = (overrides: Partial<SieveMessage> & { headers?: Record<string, string[]> } = {}): SieveMessage => {
  const headers: Record<string, string[]> = {
    from: ['Ann Archer <ann@vendor.example>'],
    to: ['me@letterbox.test'],
    subject: ['Invoice 2026-11 for October'],
    'list-id': ['<news.vendor.example>'],
    ...overrides.headers,
  };
  const lookup = (name: string) => headers[name.toLowerCase()] ?? [];
  return {
    header: lookup,
    addresses: (name) => lookup(name).map((value) => (/<([^>]+)>/.exec(value)?.[1] ?? value).toLowerCase()),
    envelope: { from: 'bounces@vendor.example', to: 'me@letterbox.test' },
    bodyText: 'Please find the invoice attached. Total due: 120 EUR.',
    size: 4096,
    ...overrides,
  };
};

const outcomeOf = (script: string, on = message()) => runSieve(compileSieve(script), on);

describe('Sieve scripts (RFC 5228 and the extensions Letterbox runs)', () => {
  test('a Roundcube-style script files, flags and stops', () => {
    const script = `# rules written by managesieve
require ["fileinto", "imap4flags"];
# rule:[Bills]
if allof (header :contains "subject" "invoice", address :domain :is "from" "vendor.example")
{
  addflag "\\\\Seen";
  fileinto "Bills";
  stop;
}
fileinto "Elsewhere";
`;
    assert.deepEqual(outcomeOf(script), { destination: { kind: 'folder', name: 'Bills' }, flags: ['seen'] });
    assert.deepEqual(
      compileSieve(script).folders.map((folder) => folder.name),
      ['Bills', 'Elsewhere'],
    );
  });

  test('no rule that matches keeps the mail in the inbox; discard and reject keep it nowhere', () => {
    assert.deepEqual(outcomeOf('require "fileinto"; if header :is "subject" "nothing" { fileinto "X"; }'), { destination: { kind: 'inbox' }, flags: [] });
    assert.deepEqual(outcomeOf('if exists "list-id" { discard; }'), { destination: { kind: 'discarded' }, flags: [] });
    assert.deepEqual(outcomeOf('require "reject"; reject "not here";'), { destination: { kind: 'discarded', reason: 'not here' }, flags: [] });
    assert.deepEqual(outcomeOf('require ["fileinto", "copy"]; fileinto :copy "Archive"; keep;').destination, { kind: 'folder', name: 'Archive' });
  });

  test('elsif and else, not, anyof, size, envelope, body, :matches and relational counts', () => {
    const script = `require ["fileinto", "envelope", "body", "relational", "comparator-i;ascii-numeric", "imap4flags"];
if size :over 1M { fileinto "Big"; }
elsif envelope :localpart :is "from" "bounces" {
  if body :contains "total due" { fileinto :flags "\\\\Flagged" "Bills"; }
}
else { keep; }`;
    assert.deepEqual(outcomeOf(script), { destination: { kind: 'folder', name: 'Bills' }, flags: ['flagged'] });
    assert.deepEqual(outcomeOf(script, message({ size: 2 * 1024 * 1024 })).destination, { kind: 'folder', name: 'Big' });
    const counts =
      'require ["fileinto", "relational", "comparator-i;ascii-numeric"]; if address :count "ge" :comparator "i;ascii-numeric" ["to", "cc"] "2" { fileinto "Many"; }';
    assert.deepEqual(outcomeOf(counts).destination, { kind: 'inbox' });
    assert.deepEqual(outcomeOf(counts, message({ headers: { cc: ['b@x.example'] } })).destination, { kind: 'folder', name: 'Many' });
    const globbed = 'require "fileinto"; if anyof (not exists "x-none", header :matches "subject" "invoice ????-?? *") { fileinto "Glob"; }';
    assert.deepEqual(outcomeOf(globbed).destination, { kind: 'folder', name: 'Glob' });
  });

  test('multi-line strings, comments and escapes read as RFC 5228 writes them', () => {
    const script = `/* a block
comment */ require "reject";
reject text:
Not accepted.
..dot-stuffed
.
;`;
    assert.deepEqual(outcomeOf(script).destination, { kind: 'discarded', reason: 'Not accepted.\r\n.dot-stuffed\r\n' });
  });

  test('vacation (RFC 5230) asks for a reply beside keeping the mail; a discard answers no one', () => {
    const script =
      'require ["vacation", "fileinto"]; if header :contains "subject" "invoice" { fileinto "Bills"; } vacation :days 3 :subject "Away" :addresses ["me@old.example"] "Back on Monday.";';
    assert.deepEqual(outcomeOf(script), {
      destination: { kind: 'folder', name: 'Bills' },
      flags: [],
      vacation: { reason: 'Back on Monday.', days: 3, subject: 'Away', addresses: ['me@old.example'] },
    });
    assert.deepEqual(outcomeOf('require "vacation"; vacation "Away."; discard;'), { destination: { kind: 'discarded' }, flags: [] });
  });

  test('redirect (RFC 5228 §4.2) cancels the implicit keep unless :copy; each address once, lower-case', () => {
    assert.deepEqual(outcomeOf('redirect "Boss@Elsewhere.example";'), { destination: { kind: 'discarded' }, flags: [], redirects: ['boss@elsewhere.example'] });
    assert.deepEqual(outcomeOf('require "copy"; redirect :copy "<boss@elsewhere.example>"; redirect :copy "boss@elsewhere.example";'), {
      destination: { kind: 'inbox' },
      flags: [],
      redirects: ['boss@elsewhere.example'],
    });
    const refused = message({ mayRedirectTo: (address) => address !== 'me@letterbox.test' });
    assert.deepEqual(
      outcomeOf('redirect "me@letterbox.test";', refused),
      { destination: { kind: 'inbox' }, flags: [] },
      'a redirect that may not go out keeps the mail',
    );
    const filed = 'require "fileinto"; if header :contains "subject" "invoice" { redirect "books@accountant.example"; fileinto "Bills"; }';
    assert.deepEqual(outcomeOf(filed), { destination: { kind: 'folder', name: 'Bills' }, flags: [], redirects: ['books@accountant.example'] });
    assert.deepEqual(
      compileSieve('redirect "a@x.example"; redirect "A@x.example"; if false { redirect "b@x.example"; }').redirects.map(({ address, at }) => [
        address,
        at.line,
        at.column,
      ]),
      [
        ['a@x.example', 1, 10],
        ['b@x.example', 1, 69],
      ],
    );
  });

  test('a script Letterbox cannot take is refused at the line and column of its problem', () => {
    const refusals: Array<[string, RegExp]> = [
      ['require "fileinto";\nif header :contains "subject" "x" {\n  filein "A";\n}', /^line 3, column 3: unknown command "filein"$/],
      ['fileinto "A";', /line 1, column 1: this needs require "fileinto"/],
      ['require "variables";', /line 1, column 9: the extension "variables" is not available in Letterbox yet/],
      ['require "vacation"; vacation :mime "x";', /vacation :mime is not available in Letterbox yet/],
      ['require "vacation"; vacation :days 0 "x";', /:days must be 1 to 365/],
      ['vacation "x";', /this needs require "vacation"/],
      ['require "x-unknown";', /the extension "x-unknown" is not supported/],
      ['if header :contains "subject" "x" { keep; ', /the script ends where "}" to close the block of if was expected/],
      ['keep;\nrequire "fileinto";', /line 2, column 1: require must come before every other command/],
      ['else { keep; }', /else must follow if or elsif/],
      ['require "imap4flags"; addflag "\\\\Deleted";', /only \\Seen and \\Flagged can be set/],
      ['if header :regex "subject" "x" { keep; }', /header takes no :regex/],
      ['redirect "not an address";', /line 1, column 10: "not an address" is not an e-mail address to redirect to/],
      ['redirect :copy "a@b.example";', /this needs require "copy"/],
      ['redirect ["a@b.example", "c@d.example"];', /the address to redirect to must be one string/],
      [
        `${['a', 'b', 'c', 'd', 'e', 'f'].map((name) => `redirect "${name}@x.example";`).join('\n')}`,
        /line 6, column 10: a script redirects to at most 5 addresses/,
      ],
      ['if size 10 { keep; }', /size takes one of :over and :under/],
      ['keep "x";', /keep takes no arguments/],
      ['"text";', /line 1, column 1: expected a command, found a string/],
      ['keep; /* never closed', /line 1, column 7: a comment that is never closed/],
    ];
    for (const [script, problem] of refusals) {
      assert.throws(
        () => compileSieve(script),
        (error: unknown) => error instanceof SieveScriptError && problem.test(error.message),
        script,
      );
    }
    assert.throws(() => compileSieve(`# ${'x'.repeat(64 * 1024)}`), /larger than 64 KB/);
    assert.throws(() => compileSieve(`${'if true {'.repeat(30)}${'}'.repeat(30)}`), /nested more than 24 deep/);
  });

  test('a pattern built to backtrack costs one pass, and a run past its budget stops and keeps the mail', () => {
    const script = `require ["fileinto", "body"]; if body :matches ${JSON.stringify(`${'*a'.repeat(40)}b`)} { fileinto "Never"; }`;
    const long = message({ bodyText: 'a'.repeat(60_000) });
    assert.deepEqual(runSieve(compileSieve(script), long), { destination: { kind: 'inbox' }, flags: [] });
    assert.deepEqual(runSieve(compileSieve(script), long, 10_000), { destination: { kind: 'inbox' }, flags: [], exhausted: true });
  });
});
