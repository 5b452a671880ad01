import type { NoticeLanguage } from '../notice-language';

/** The out-of-office reply's own words, where the user gave none, in each language Letterbox writes them in. */
interface VacationTexts {
  /** What a user who never set a reply is offered. */
  unsetSubject: string;
  unsetText: string;
  /** A script's `vacation` without `:subject`: RFC 5230 §4.3's "Auto:" and the subject answered, in the user's language. */
  autoSubject(answered: string): string;
}

const TEXTS: Record<NoticeLanguage, VacationTexts> = {
  en: {
    unsetSubject: 'Out of office',
    unsetText: 'I am away and will answer when I am back.',
    autoSubject: (answered) => `Auto: ${answered}`.trim(),
  },
  ko: {
    unsetSubject: '부재중 안내',
    unsetText: '지금은 자리에 없습니다. 돌아와서 답장드리겠습니다.',
    autoSubject: (answered) => `자동 응답: ${answered}`.trim(),
  },
};

export function vacationTexts(language: NoticeLanguage): VacationTexts {
  return TEXTS[language];
}
