import { daysLater, formatDay, formatTime, groupThousands, meetingTime } from './formatting';
import type { MailTemplate } from './mail-template';
import { JAPANESE_PEOPLE } from './sample-people';

const UNSUBSCRIBE = '配信停止をご希望の方は、アカウント設定からお手続きください。';

export const JAPANESE_TEMPLATES: readonly MailTemplate[] = [
  {
    language: 'ja',
    senders: [{ name: '週刊デザイン通信', address: 'news@design-tsushin.example' }],
    write: ({ random, recipientName }) => {
      const count = random.between(3, 8);
      return {
        subject: `【週刊デザイン通信】今週のおすすめ記事 ${count} 選`,
        title: `今週のおすすめ記事 ${count} 選`,
        paragraphs: [
          `${recipientName}様`,
          `いつもご購読ありがとうございます。今週は「${random.pick(['余白の使い方', '配色の基本', '日本語タイポグラフィ'])}」をテーマに ${count} 本の記事をお届けします。`,
          '気になる記事があれば、ぜひ SNS でシェアしてください。🎨',
        ],
        footer: UNSUBSCRIBE,
      };
    },
  },
  {
    language: 'ja',
    senders: [{ name: 'さくらネット請求センター', address: 'billing@sakura-net.example' }],
    write: ({ random, recipientName, sentAt }) => {
      const invoice = `SN-${random.between(100_000, 999_999)}`;
      return {
        subject: `【ご請求】${sentAt.getUTCMonth() + 1}月分ご利用料金のお知らせ（${invoice}）`,
        title: 'ご利用料金のお知らせ',
        paragraphs: [
          `${recipientName}様`,
          `${sentAt.getUTCMonth() + 1}月分のご利用料金は ${groupThousands(random.between(1_000, 30_000))} 円（税込）です。お支払い期限は ${formatDay(daysLater(sentAt, 20), 'ja')} です。`,
          'ご登録のクレジットカードから自動で引き落とされます。',
          '今後ともよろしくお願いいたします。',
        ],
        footer: '株式会社さくらネット',
      };
    },
  },
  {
    language: 'ja',
    senders: JAPANESE_PEOPLE,
    write: ({ random, senderName, recipientName, sentAt }) => {
      const at = meetingTime(sentAt, random.between(1, 7), random.between(0, 17));
      return {
        subject: `【会議のご案内】${formatDay(at, 'ja')} ${formatTime(at)}〜 定例ミーティング`,
        title: '定例ミーティングのご案内',
        paragraphs: [
          `${recipientName}さん`,
          `お疲れさまです。${formatDay(at, 'ja')} ${formatTime(at)} から ${random.pick(['30', '60'])} 分間、定例ミーティングを行います。`,
          '議題：進捗共有、課題の確認、次回リリースの段取り。',
          `ご都合が悪い場合はご連絡ください。\n${senderName}`,
        ],
      };
    },
  },
  {
    language: 'ja',
    senders: [{ name: 'はやぶさ通販', address: 'shop@hayabusa-tsuhan.example' }],
    write: ({ random, recipientName, sentAt }) => {
      const order = `HY-${random.between(1_000_000, 9_999_999)}`;
      return {
        subject: `ご注文商品発送のお知らせ（注文番号: ${order}）`,
        title: '商品を発送しました',
        paragraphs: [
          `${recipientName}様`,
          `ご注文いただいた商品を本日発送いたしました。お届け予定日は ${formatDay(daysLater(sentAt, random.between(1, 4)), 'ja')} です。`,
          `お問い合わせ番号：${random.between(1000, 9999)}-${random.between(1000, 9999)}-${random.between(1000, 9999)}`,
        ],
        footer: 'はやぶさ通販 カスタマーサポート',
      };
    },
  },
  {
    language: 'ja',
    senders: [{ name: 'アカウントセンター', address: 'security@accounts.example' }],
    write: ({ random, recipientName, sentAt }) => ({
      subject: '【重要】新しい端末からのログインがありました',
      title: '新しい端末からのログイン',
      paragraphs: [
        `${recipientName}様`,
        `${formatDay(sentAt, 'ja')} ${formatTime(sentAt)}（UTC）に ${random.pick(['Windows PC', 'iPhone', 'Android 端末', 'Mac'])} からログインがありました。`,
        'お心当たりがない場合は、すぐにパスワードを変更してください。',
      ],
      footer: 'このメールは送信専用です。',
    }),
  },
  {
    language: 'ja',
    senders: JAPANESE_PEOPLE,
    write: ({ random, senderName, recipientName }) => ({
      subject: `週末の件 ${random.pick(['🍣', '🍻', '⛩️'])}`,
      title: '週末の件',
      paragraphs: [
        `${recipientName}さん、こんにちは！`,
        `土曜日の${random.pick(['お寿司', '花見', '美術館'])}、予定どおりで大丈夫そうです。駅の改札に 11 時集合でどうでしょう？`,
        `楽しみにしています。\n${senderName}`,
      ],
    }),
  },
  {
    language: 'ja',
    senders: [{ name: '総務部', address: 'soumu@sakura-trading.example' }],
    write: ({ random }) => ({
      subject: '【お知らせ】年末年始休業について',
      title: '年末年始休業のお知らせ',
      paragraphs: [
        '社員各位',
        `12月${random.between(27, 29)}日から1月${random.between(3, 5)}日まで、年末年始休業となります。`,
        '休業中の緊急連絡は、各部署の当番者までお願いします。',
        '総務部',
      ],
    }),
  },
  {
    language: 'ja',
    senders: [{ name: '割烹 みやび', address: 'yoyaku@kappo-miyabi.example' }],
    write: ({ random, recipientName, sentAt }) => {
      const day = formatDay(daysLater(sentAt, random.between(3, 20)), 'ja');
      return {
        subject: `ご予約確認：${day} ${random.pick(['18:00', '18:30', '19:00', '19:30'])} ${random.between(2, 6)}名様`,
        title: 'ご予約ありがとうございます',
        paragraphs: [
          `${recipientName}様`,
          'このたびはご予約いただき誠にありがとうございます。当日はお気をつけてお越しください。',
          'キャンセルは前日までにお電話でお願いいたします。',
        ],
        footer: '割烹 みやび · 京都市中京区',
      };
    },
  },
  {
    language: 'ja',
    senders: JAPANESE_PEOPLE,
    write: ({ random, senderName, recipientName }) => {
      const quote = `Q-${random.between(10_000, 99_999)}`;
      return {
        subject: `お見積書送付の件（${quote}）`,
        title: 'お見積書の送付',
        paragraphs: [
          `${recipientName}様`,
          `いつもお世話になっております。ご依頼いただいた${random.pick(['サーバー保守', 'ロゴデザイン', '翻訳業務'])}のお見積書（${quote}）をお送りいたします。`,
          `金額は ${groupThousands(random.between(50, 900) * 1_000)} 円（税別）です。ご検討のほどよろしくお願いいたします。`,
          senderName,
        ],
      };
    },
  },
  {
    language: 'ja',
    senders: [{ name: 'テックセミナー事務局', address: 'seminar@tech-seminar.example' }],
    write: ({ random, recipientName, sentAt }) => {
      const at = meetingTime(sentAt, 1, random.between(2, 16));
      return {
        subject: '【リマインド】オンラインセミナーは明日開催です',
        title: 'オンラインセミナーのご案内',
        paragraphs: [
          `${recipientName}様`,
          `「${random.pick(['メール配信の基礎', 'はじめての TypeScript', 'クラウド移行の進め方'])}」は ${formatDay(at, 'ja')} ${formatTime(at)} 開始です。`,
          '開始 10 分前から入室できます。資料は終了後にお送りします。',
        ],
        footer: UNSUBSCRIBE,
      };
    },
  },
];
