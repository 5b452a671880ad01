import type { AuthResult } from './mail-authentication';

const RESULT_WORDS = new Set<AuthResult>(['pass', 'fail', 'softfail', 'neutral', 'none', 'temperror', 'permerror', 'policy']);

/** The methods Letterbox keeps a result of. */
export type CheckedMethod = 'spf' | 'dkim' | 'dmarc' | 'arc';
const METHODS = new Set<string>(['spf', 'dkim', 'dmarc', 'arc']);

/** What an Authentication-Results field (RFC 8601) says. */
export interface ParsedResults {
  /** Lower case. */
  authservId: string;
  /** The best result of each method it names (one passing DKIM signature is enough). */
  results: Partial<Record<CheckedMethod, AuthResult>>;
  /** The DMARC policy its comment names (`p=REJECT`, as mailauth and most verifiers write it), if any. */
  dmarcPolicy?: 'reject' | 'quarantine' | 'none';
}

/** Parses an Authentication-Results value (the field's value, or the whole field); one pass over it. */
export function parseAuthenticationResults(value: string): ParsedResults {
  const clauses = value.replace(/^\s*authentication-results\s*:/i, '').split(';');
  const authservId = withoutComments(clauses[0]).trim().split(/\s+/)[0].toLowerCase();
  const results: ParsedResults['results'] = {};
  let dmarcPolicy: ParsedResults['dmarcPolicy'];
  for (const clause of clauses.slice(1)) {
    const match = /^\s*([a-z0-9-]+)(?:\/[0-9]+)?\s*=\s*([a-z]+)/i.exec(withoutComments(clause));
    if (!match) continue;
    const method = match[1].toLowerCase();
    const result = match[2].toLowerCase() as AuthResult;
    if (!METHODS.has(method) || !RESULT_WORDS.has(result)) continue;
    const known = results[method as CheckedMethod];
    if (known !== 'pass') results[method as CheckedMethod] = known && result === 'none' ? known : result;
    if (method === 'dmarc') dmarcPolicy ??= /\bp=(reject|quarantine|none)\b/i.exec(clause)?.[1].toLowerCase() as ParsedResults['dmarcPolicy'];
  }
  return { authservId, results, dmarcPolicy };
}

/** The authserv-id an Authentication-Results field names, lower case: what tells whose results it claims to be. */
export function authservIdOf(field: string): string {
  const value = field.replace(/^\s*authentication-results\s*:/i, '');
  const end = value.indexOf(';');
  return withoutComments(end === -1 ? value : value.slice(0, end))
    .trim()
    .split(/\s+/)[0]
    .toLowerCase();
}

/** The text without its RFC 5322 comments (nested, with quoted characters), in one pass. */
function withoutComments(text: string): string {
  let depth = 0;
  let kept = '';
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '\\' && depth > 0) index++;
    else if (char === '(') depth++;
    else if (char === ')' && depth > 0) depth--;
    else if (depth === 0) kept += char;
  }
  return kept;
}
