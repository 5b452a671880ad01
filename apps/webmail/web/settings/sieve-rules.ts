/** A rule as the editor builds it: one condition, one action. */
export interface RuleDraft {
  name: string;
  field: 'from' | 'to' | 'subject' | 'header' | 'list' | 'attachment' | 'size';
  /** The header's name, for `header`. */
  header: string;
  operator: 'contains' | 'is';
  value: string;
  action: 'fileinto' | 'read' | 'flag' | 'discard' | 'redirect';
  folder: string;
  /** Where `redirect` sends the mail on. */
  address: string;
  /** `redirect :copy`: the mail is kept here as well. */
  keepCopy: boolean;
}

/** Sieve's quoted string: only `"` and `\` are escaped. */
const quoted = (text: string) => `"${text.replace(/[\\"]/g, (character) => `\\${character}`)}"`;

function condition(rule: RuleDraft): string {
  const match = `:${rule.operator}`;
  switch (rule.field) {
    case 'from':
      return `address ${match} "from" ${quoted(rule.value)}`;
    case 'to':
      return `address ${match} ["to", "cc"] ${quoted(rule.value)}`;
    case 'subject':
      return `header ${match} "subject" ${quoted(rule.value)}`;
    case 'header':
      return `header ${match} ${quoted(rule.header)} ${quoted(rule.value)}`;
    case 'list':
      return rule.value.trim() === '' ? 'exists "list-id"' : `header ${match} "list-id" ${quoted(rule.value)}`;
    case 'attachment':
      return 'header :contains "content-type" "multipart/mixed"';
    case 'size':
      return `size :over ${Number.parseInt(rule.value, 10) || 0}K`;
  }
}

function action(rule: RuleDraft): { lines: string[]; needs: string[] } {
  switch (rule.action) {
    case 'fileinto':
      return { lines: [`fileinto ${quoted(rule.folder)};`], needs: ['fileinto'] };
    case 'read':
      return { lines: ['addflag "\\\\Seen";'], needs: ['imap4flags'] };
    case 'flag':
      return { lines: ['addflag "\\\\Flagged";'], needs: ['imap4flags'] };
    case 'discard':
      return { lines: ['discard;', 'stop;'], needs: [] };
    case 'redirect':
      return rule.keepCopy
        ? { lines: [`redirect :copy ${quoted(rule.address.trim())};`], needs: ['copy'] }
        : { lines: [`redirect ${quoted(rule.address.trim())};`], needs: [] };
  }
}

const REQUIRE = /^\s*require\s+(\[[^\]]*\]|"[^"]*")\s*;[ \t]*\r?\n?/;

/**
 * The script with the rule added at its end, in the form Roundcube's managesieve writes (`# rule:[name]`), and
 * the extensions it needs added to the `require` at the script's start. Whatever else the script holds is left as written.
 */
export function withRule(script: string, rule: RuleDraft): string {
  const { lines, needs } = action(rule);
  let rest = script;
  const required: string[] = [];
  for (let found = REQUIRE.exec(rest); found; found = REQUIRE.exec(rest)) {
    required.push(...(found[1].match(/"([^"]*)"/g) ?? []).map((name) => name.slice(1, -1)));
    rest = rest.slice(found[0].length);
  }
  const extensions = [...new Set([...required, ...needs])];
  const head = extensions.length > 0 ? `require [${extensions.map(quoted).join(', ')}];\n` : '';
  const body = rest.trimEnd();
  const block = [`# rule:[${rule.name.replace(/[\r\n\]]/g, ' ')}]`, `if ${condition(rule)} {`, ...lines.map((line) => `  ${line}`), '}'].join('\n');
  return `${head}${body === '' ? '' : `${body}\n`}${block}\n`;
}
