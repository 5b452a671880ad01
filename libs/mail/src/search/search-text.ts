import type { MailAddress } from '@letterbox/mime';

/** How much of a mail's body text is indexed and kept for snippets: bounded work per mail. */
export const SEARCH_BODY_CHARS = 20_000;

/** Hangul, kana, CJK ideographs and their compatibility forms: scripts written without spaces between words (or, in Korean, with particles joined to them). */
const CJK_RUN = /[\u1100-\u11ff\u3040-\u30ff\u3130-\u318f\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff66-\uff9f]+/g;

/**
 * Text as the index and the queries both see it. PostgreSQL's parser takes a run of CJK
 * characters for one word ("회의록을", a whole Japanese sentence), so such runs become their
 * overlapping pairs of characters ("회의 의록 록을"): a word inside a run is then the phrase
 * of its pairs ("회의록" is 회의 <-> 의록), as n-gram analyzers do. Linear in the text.
 */
export function searchableText(text: string): string {
  return text.replace(CJK_RUN, (run) => (run.length < 3 ? ` ${run} ` : ` ${characterPairs(run)} `));
}

function characterPairs(run: string): string {
  const characters = Array.from(run);
  const pairs: string[] = [];
  for (let index = 0; index + 1 < characters.length; index++) pairs.push(characters[index] + characters[index + 1]);
  return pairs.join(' ');
}

/** Names and addresses, with each address's local part and domain also on their own, so "alice" finds alice@example.com. */
export function searchablePeople(people: MailAddress[]): string {
  return searchableText(
    people
      .map(({ name, address }) => {
        const at = address.lastIndexOf('@');
        return at > 0 ? `${name} ${address} ${address.slice(0, at)} ${address.slice(at + 1)}` : `${name} ${address}`;
      })
      .join(' '),
  );
}
