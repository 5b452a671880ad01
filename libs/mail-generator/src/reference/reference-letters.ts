import type { Letter } from '../letter-layout';
import { MEDIUM_BANNER } from './reference-attachments';
import type { ReferenceSize } from './reference-size';

const FOOTER = 'Letterbox 팀 · 서울특별시 강남구 테헤란로 123 · 수신을 원하지 않으시면 답장으로 알려 주세요.';

/** Korean, Japanese and emoji in the subject so the header needs RFC 2047 encoded words. */
export function referenceLetter(size: ReferenceSize): Letter & { subject: string } {
  switch (size) {
    case 'small':
      return {
        subject: '주간 회의록 · 週次議事録 · Weekly notes 📝',
        language: 'ko',
        title: '주간 회의록 — 3월 첫째 주',
        paragraphs: [
          '안녕하세요, 팀 여러분.',
          '이번 주 회의에서 논의한 내용을 정리해 공유드립니다. 다음 배포는 3월 12일(목)로 확정되었고, 검색 색인 개선 작업은 예정대로 진행합니다.',
          '決定事項: 東京オフィスとの定例会議は毎週火曜日 10:00 (JST) に変更します。',
          'Action items: Jiwoo finishes the IMAP sync review by Friday; Hana drafts the release notes. 🙏',
          '궁금한 점이 있으면 편하게 답장 주세요.\n감사합니다.\n김민준 드림',
        ],
        footer: FOOTER,
      };
    case 'medium':
      return {
        subject: '2026년 1분기 보고서 — 四半期レポート 📊',
        language: 'ko',
        title: '2026년 1분기 실적 보고서',
        image: { ...MEDIUM_BANNER, alt: '1분기 보고서 배너' },
        paragraphs: [
          '안녕하세요, 재무팀 이서연입니다.',
          '2026년 1분기 실적 보고서를 보내 드립니다. 매출은 전 분기 대비 12.4% 늘었고, 부산·대구 지점의 성장이 특히 두드러졌습니다.',
          '첨부 파일: quarterly-report.pdf (요약 보고서), 보고서 2026.csv (지점별 판매 내역).',
          '東京・大阪店舗の数値も CSV に含まれています。ご確認をお願いいたします。',
          'The figures are preliminary until the audit closes on April 15. Please send corrections before then. ✅',
          '감사합니다.\n이서연 드림',
        ],
        footer: FOOTER,
      };
    case 'large':
      return {
        subject: '프로젝트 아카이브 전달 — アーカイブ送付 📦',
        language: 'ko',
        title: '프로젝트 아카이브 전달',
        paragraphs: [
          '안녕하세요, 인프라팀 박지훈입니다.',
          '요청하신 프로젝트 아카이브(archive.bin, 16 MiB)를 첨부합니다. 내려받은 뒤 archive.bin.sha256 의 체크섬과 비교해 주세요.',
          'アーカイブの展開手順は従来と同じです。',
          'If the download stalls, reply to this message and I will send a link instead. 🚀',
          '감사합니다.\n박지훈 드림',
        ],
        footer: FOOTER,
      };
  }
}
