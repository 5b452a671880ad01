/**
 * Words for generated mail bodies, in English and Korean, ranked so that drawing rank r
 * with probability about 1/r (Zipf's law, as in real text) gives realistic frequencies:
 * the first words are in nearly every mail, the last in a handful of a million.
 */
const COMMON_ENGLISH = `the of and to a in is you that it he was for on are as with his they at be this have from or one had by word but not
what all were we when your can said there use an each which she do how their if will up other about out many then them these so some her would
make like him into time has look two more write go see number no way could people my than first water been call who oil its now find long down
day did get come made may part meeting budget report review project team please thanks attached schedule update client invoice contract deadline`.split(/\s+/);

const ENGLISH_SYLLABLES = [
  'ar',
  'ben',
  'cor',
  'dal',
  'el',
  'fen',
  'gar',
  'hol',
  'in',
  'jor',
  'kel',
  'lan',
  'mor',
  'nel',
  'or',
  'pen',
  'quin',
  'ras',
  'sel',
  'tor',
  'ul',
  'ven',
  'wil',
  'yor',
  'zan',
];

const COMMON_KOREAN =
  `회의 예산 보고서 일정 검토 부탁 첨부 확인 내일 오늘 프로젝트 고객 계약 마감 감사 안녕하세요 자료 공유 진행 결과 요청 답변 회신 수정 승인 담당자 팀장 부서 공지 안내`.split(
    /\s+/,
  );

/** Hangul syllables without a final consonant, every initial with every vowel: 399 of them (real text uses some 2,000). */
const KOREAN_SYLLABLES = Array.from({ length: 19 * 21 }, (_, index) => String.fromCharCode(0xac00 + index * 28));

export const ENGLISH_WORDS = vocabulary(COMMON_ENGLISH, ENGLISH_SYLLABLES, 20_000);
export const KOREAN_WORDS = vocabulary(COMMON_KOREAN, KOREAN_SYLLABLES, 10_000);

/** The common words, then made-up ones of two to four syllables, all different. */
function vocabulary(common: string[], syllables: string[], size: number): string[] {
  const words = new Set(common);
  const random = seeded(size);
  while (words.size < size) {
    const length = 2 + Math.floor(random() * 3);
    let word = '';
    for (let index = 0; index < length; index++) word += syllables[Math.floor(random() * syllables.length)];
    words.add(word);
  }
  return [...words];
}

/** A word of rank about 1/r likely: rank = ⌈size^u⌉ for u uniform, a log-uniform draw. */
export function zipfWord(words: string[], random: () => number): string {
  return words[Math.min(words.length, Math.ceil(Math.pow(words.length, random()))) - 1];
}

/** A small seeded generator (mulberry32): the same data on every machine. */
export function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
