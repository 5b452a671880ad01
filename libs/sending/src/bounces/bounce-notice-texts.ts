import type { NoticeLanguage } from '../notice-language';

/* The words of a bounce notice, in each language Letterbox writes them in; the sender's locale chooses. */

export interface BounceNoticeFacts {
  address: string;
  diagnostic: string;
  subject: string;
  sentAt: string;
  /** The address went on the suppression list: the notice says no mail goes to it any more. */
  suppressed: boolean;
}

interface NoticeTexts {
  senderName: string;
  subject(facts: BounceNoticeFacts): string;
  body(facts: BounceNoticeFacts): string;
}

const TEXTS: Record<NoticeLanguage, NoticeTexts> = {
  en: {
    senderName: 'Mail Delivery System',
    subject: ({ address }) => `Address not found: ${address}`,
    body: ({ address, diagnostic, subject, sentAt, suppressed }) =>
      [
        `Your message wasn't delivered to ${address} because the address couldn't be found or can't receive mail.`,
        '',
        `Message: ${subject}`,
        `Sent: ${sentAt}`,
        '',
        'The receiving server said:',
        diagnostic,
        ...(suppressed ? ['', 'Letterbox will not send to this address again until an administrator removes it from the suppression list.'] : []),
      ].join('\n'),
  },
  ko: {
    senderName: '메일 전송 시스템',
    subject: ({ address }) => `주소를 찾을 수 없음: ${address}`,
    body: ({ address, diagnostic, subject, sentAt, suppressed }) =>
      [
        `주소를 찾을 수 없거나 메일을 받을 수 없는 주소여서 ${address}(으)로 메일을 전송하지 못했습니다.`,
        '',
        `메일: ${subject}`,
        `보낸 시각: ${sentAt}`,
        '',
        '받는 서버의 응답:',
        diagnostic,
        ...(suppressed ? ['', '관리자가 수신 거부 목록에서 삭제할 때까지 Letterbox는 이 주소로 메일을 보내지 않습니다.'] : []),
      ].join('\n'),
  },
};

export function noticeTexts(language: NoticeLanguage): NoticeTexts {
  return TEXTS[language];
}
