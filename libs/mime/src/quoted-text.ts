/**
 * How much of a body is looked at for its own words: a bottom-posted answer under a long quote is still
 * found, and a body of megabytes costs what this does.
 */
export const QUOTE_SCAN_CHARS = 32 * 1024;
/** Attribution lines are short; a longer line is never taken for one, so no pattern runs over a long line. */
const ATTRIBUTION_MAX_CHARS = 300;

const QUOTED_LINE = /^\s*>/;
/** "On Tue, 3 Nov 2026, Bob <bob@example.test> wrote:", possibly wrapped after the address. */
const ATTRIBUTION_START = /^\s*On\s/;
const ATTRIBUTION_END = /\bwrote:\s*$/;
/** Korean webmails: "2026년 11월 3일 (화) 오전 10:00, 김민준 <minjun@example.test>님이 작성:". */
const KOREAN_ATTRIBUTION = /님이\s*작성:\s*$/;
/** Outlook's separator: everything under it is the message answered. */
const ORIGINAL_MESSAGE = /^\s*-{2,}\s*(Original Message|원본 메시지)\s*-{2,}\s*$/i;

/**
 * A message's own words: lines quoted with ">" and "On … wrote:" blocks (the attribution, and the
 * message under it) left out. One pass over at most QUOTE_SCAN_CHARS of the text, each line looked at
 * once; the patterns are anchored and run only on short lines.
 */
export function withoutQuotedText(text: string): string {
  const lines = text.slice(0, QUOTE_SCAN_CHARS).split(/\r?\n/);
  const own: string[] = [];
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index];
    if (QUOTED_LINE.test(line)) continue;
    if (line.length > ATTRIBUTION_MAX_CHARS) {
      own.push(line);
      continue;
    }
    if (ORIGINAL_MESSAGE.test(line)) break;
    const attributionLines = attributionAt(lines, index);
    if (attributionLines === 0) {
      own.push(line);
      continue;
    }
    index += attributionLines - 1;
    // An attribution not followed by ">" lines heads a quote that was not marked (a top-posted answer): the rest is that quote.
    const next = nextNonBlank(lines, index + 1);
    if (next === -1 || !QUOTED_LINE.test(lines[next])) break;
  }
  return own.join('\n').trim();
}

/** How many lines an attribution starting at `index` spans: 0 (none), 1, or 2 when wrapped. */
function attributionAt(lines: string[], index: number): number {
  const line = lines[index];
  if (KOREAN_ATTRIBUTION.test(line)) return 1;
  if (!ATTRIBUTION_START.test(line)) return 0;
  if (ATTRIBUTION_END.test(line)) return 1;
  const wrapped = lines[index + 1];
  return wrapped !== undefined && wrapped.length <= ATTRIBUTION_MAX_CHARS && ATTRIBUTION_END.test(wrapped) ? 2 : 0;
}

/** Blank lines between an attribution and its quote are skipped; each is looked at once more at most. */
function nextNonBlank(lines: string[], from: number): number {
  for (let index = from; index < lines.length; index++) if (lines[index].trim() !== '') return index;
  return -1;
}
