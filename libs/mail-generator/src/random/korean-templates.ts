import { daysLater, formatDay, formatTime, groupThousands, meetingTime } from './formatting';
import type { MailTemplate } from './mail-template';
import { KOREAN_PEOPLE } from './sample-people';

const UNSUBSCRIBE = '본 메일은 수신 동의하신 분께 발송되었습니다. 수신을 원하지 않으시면 설정에서 수신 거부해 주세요.';

export const KOREAN_TEMPLATES: readonly MailTemplate[] = [
  {
    language: 'ko',
    senders: [{ name: '주간 테크 브리핑', address: 'letter@tech-briefing.example' }],
    write: ({ random, recipientName }) => {
      const count = random.between(3, 7);
      return {
        subject: `[주간 테크 브리핑] 이번 주 꼭 읽어야 할 기사 ${count}선`,
        title: `이번 주 꼭 읽어야 할 기사 ${count}선`,
        paragraphs: [
          `${recipientName}님, 안녕하세요!`,
          `이번 호에서는 ${random.pick(['생성형 AI 규제 동향', '국내 클라우드 시장 점유율', '개발자 채용 시장 전망'])}을 중심으로 ${count}개의 기사를 골랐습니다.`,
          '바쁘신 분들을 위해 기사마다 세 줄 요약을 붙였습니다. 출퇴근길에 가볍게 읽어 보세요. ☕',
          '다음 주에 또 찾아뵙겠습니다.',
        ],
        footer: UNSUBSCRIBE,
      };
    },
  },
  {
    language: 'ko',
    senders: [{ name: '한빛클라우드 고객센터', address: 'billing@hanbit-cloud.example' }],
    write: ({ random, recipientName, sentAt }) => {
      const invoice = `HC-${sentAt.getUTCFullYear()}${String(sentAt.getUTCMonth() + 1).padStart(2, '0')}-${random.between(10_000, 99_999)}`;
      return {
        subject: `[한빛클라우드] ${sentAt.getUTCMonth() + 1}월 이용 요금 청구서 (${invoice})`,
        title: '이용 요금 청구서',
        paragraphs: [
          `${recipientName} 고객님, 안녕하세요.`,
          `${sentAt.getUTCMonth() + 1}월 서비스 이용 요금은 ${groupThousands(random.between(10, 900) * 1_100)}원이며, 납부 기한은 ${formatDay(daysLater(sentAt, 10), 'ko')}입니다.`,
          '등록하신 결제 수단으로 자동 결제되며, 상세 내역은 콘솔의 결제 메뉴에서 확인하실 수 있습니다.',
          '이용해 주셔서 감사합니다.',
        ],
        footer: '한빛클라우드(주) · 사업자등록번호 123-45-67890',
      };
    },
  },
  {
    language: 'ko',
    senders: KOREAN_PEOPLE,
    write: ({ random, senderName, recipientName, sentAt }) => {
      const at = meetingTime(sentAt, random.between(1, 7), random.between(0, 17));
      const topic = random.pick(['스프린트 회고', '분기 계획 회의', '디자인 리뷰', '주간 업무 보고']);
      return {
        subject: `[회의 초대] ${formatDay(at, 'ko')} ${formatTime(at)} ${topic}`,
        title: topic,
        paragraphs: [
          `${recipientName}님, 안녕하세요.`,
          `${formatDay(at, 'ko')} ${formatTime(at)}에 ${topic}를 진행하려고 합니다. 장소는 3층 대회의실이며 화상으로도 참여하실 수 있습니다.`,
          '안건: 지난 2주간 진행 상황 공유, 막힌 부분 논의, 다음 일정 확정.',
          `참석이 어려우시면 미리 알려 주세요.\n${senderName} 드림`,
        ],
      };
    },
  },
  {
    language: 'ko',
    senders: [{ name: '쿠키마켓', address: 'order@cookie-market.example' }],
    write: ({ random, recipientName, sentAt }) => {
      const order = `${sentAt.getUTCFullYear()}${random.between(1_000_000, 9_999_999)}`;
      return {
        subject: `주문하신 상품이 발송되었습니다 (주문번호 ${order}) 🚚`,
        title: '상품 발송 안내',
        paragraphs: [
          `${recipientName}님, 주문해 주셔서 감사합니다.`,
          `주문번호 ${order}의 상품이 오늘 출고되었습니다. 예상 도착일은 ${formatDay(daysLater(sentAt, random.between(1, 3)), 'ko')}입니다.`,
          `운송장 번호: ${random.between(100_000, 999_999)}${random.between(100_000, 999_999)} (한빛택배)`,
        ],
        footer: '쿠키마켓 고객센터 1588-0000 · 평일 09:00~18:00',
      };
    },
  },
  {
    language: 'ko',
    senders: [{ name: '레터박스 보안 알림', address: 'security@accounts.example' }],
    write: ({ random, recipientName, sentAt }) => ({
      subject: '새로운 기기에서 로그인되었습니다',
      title: '새 기기 로그인 알림',
      paragraphs: [
        `${recipientName}님, 안녕하세요.`,
        `${formatDay(sentAt, 'ko')} ${formatTime(sentAt)}(UTC)에 ${random.pick(['Windows PC', 'iPhone', 'Galaxy 태블릿', 'Mac'])}에서 계정에 로그인했습니다.`,
        '본인이 로그인한 것이 아니라면 즉시 비밀번호를 변경하고 2단계 인증을 설정해 주세요.',
      ],
      footer: '이 메일은 발신 전용입니다.',
    }),
  },
  {
    language: 'ko',
    senders: KOREAN_PEOPLE,
    write: ({ random, senderName, recipientName }) => ({
      subject: '이번 주말에 시간 괜찮아? 😊',
      title: '주말 약속',
      paragraphs: [
        `${recipientName}, 잘 지내지?`,
        `이번 주말에 ${random.pick(['한강에서 자전거 타자', '성수동에 새로 생긴 카페 가 보자', '같이 전시 보러 가자', '등산 어때'])}. 토요일 오후 괜찮으면 알려 줘!`,
        `답장 기다릴게 ㅎㅎ\n${senderName}`,
      ],
    }),
  },
  {
    language: 'ko',
    senders: [{ name: '경영지원팀', address: 'notice@hanbit-soft.example' }],
    write: ({ random, sentAt }) => {
      const day = formatDay(daysLater(sentAt, random.between(3, 10)), 'ko');
      return {
        subject: `[공지] 사내 시스템 정기 점검 안내 (${day})`,
        title: '사내 시스템 정기 점검 안내',
        paragraphs: [
          '임직원 여러분께,',
          `${day} 22:00부터 다음 날 06:00까지 ${random.pick(['그룹웨어', '전자결재', '사내 메일', 'VPN'])} 정기 점검이 진행됩니다.`,
          '점검 시간에는 서비스 이용이 제한되오니 업무에 참고해 주시기 바랍니다.',
          '경영지원팀 드림',
        ],
      };
    },
  },
  {
    language: 'ko',
    senders: [{ name: '한빛카드', address: 'statement@hanbit-card.example' }],
    write: ({ random, recipientName, sentAt }) => ({
      subject: `[한빛카드] ${sentAt.getUTCMonth() + 1}월 카드 이용대금 명세서`,
      title: '카드 이용대금 명세서',
      paragraphs: [
        `${recipientName} 회원님, 안녕하세요.`,
        `이번 달 결제하실 금액은 ${groupThousands(random.between(50, 3_000) * 1_000)}원이며, 결제일은 ${formatDay(daysLater(sentAt, 14), 'ko')}입니다.`,
        '명세서 상세 내역은 한빛카드 앱에서 확인하실 수 있습니다.',
      ],
      footer: UNSUBSCRIBE,
    }),
  },
  {
    language: 'ko',
    senders: [{ name: '튼튼치과', address: 'reservation@teunteun-dental.example' }],
    write: ({ random, recipientName, sentAt }) => {
      const at = meetingTime(sentAt, random.between(2, 14), random.between(0, 15));
      return {
        subject: `[예약 확정] ${formatDay(at, 'ko')} 진료 예약 안내`,
        title: '진료 예약 안내',
        paragraphs: [
          `${recipientName}님, 튼튼치과입니다.`,
          `${formatDay(at, 'ko')} ${formatTime(at)} ${random.pick(['정기 검진', '스케일링', '충치 치료'])} 예약이 확정되었습니다.`,
          '예약 변경은 하루 전까지 전화로 부탁드립니다. 감사합니다.',
        ],
      };
    },
  },
  {
    language: 'ko',
    senders: KOREAN_PEOPLE,
    write: ({ random, senderName, recipientName }) => {
      const amount = groupThousands(random.between(50, 1_500) * 1_000);
      return {
        subject: `[결재 요청] 출장비 정산 (${amount}원)`,
        title: '출장비 정산 결재 요청',
        paragraphs: [
          `${recipientName}님, 안녕하세요.`,
          `${random.pick(['부산', '대전', '제주', '도쿄'])} 출장 경비 ${amount}원에 대한 정산 결재를 요청드립니다. 영수증은 전자결재에 첨부했습니다.`,
          `검토 부탁드립니다.\n${senderName} 드림`,
        ],
      };
    },
  },
];
