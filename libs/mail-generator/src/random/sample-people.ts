import type { Address } from '../mail-envelope';

// Reserved .example domains (RFC 2606), so generated mail can never reach a real inbox.

export const KOREAN_PEOPLE: readonly Address[] = [
  { name: '김민준', address: 'minjun.kim@hanbit-soft.example' },
  { name: '이서연', address: 'seoyeon.lee@hanbit-soft.example' },
  { name: '박지훈', address: 'jihoon.park@mail.example' },
  { name: '최유진 🌸', address: 'yujin.choi@mail.example' },
  { name: '정하은', address: 'haeun.jung@seoul-design.example' },
];

export const JAPANESE_PEOPLE: readonly Address[] = [
  { name: '山田 太郎', address: 'taro.yamada@sakura-trading.example' },
  { name: '佐藤 健', address: 'ken.sato@sakura-trading.example' },
  { name: '鈴木 花子', address: 'hanako.suzuki@mail.example' },
  { name: '高橋 美咲 ✨', address: 'misaki.takahashi@mail.example' },
  { name: '田中 翔太', address: 'shota.tanaka@osaka-works.example' },
];

// Apostrophes, quotes and accents exercise the quoting and encoding of display names.
export const ENGLISH_PEOPLE: readonly Address[] = [
  { name: 'Emma Clark', address: 'emma.clark@northwind.example' },
  { name: "Liam O'Brien", address: 'liam.obrien@northwind.example' },
  { name: 'Sofía García', address: 'sofia.garcia@mail.example' },
  { name: 'Noah "Nate" Williams', address: 'nate@mail.example' },
  { name: 'Ava Johnson 🎧', address: 'ava.johnson@contoso.example' },
];

export const RECIPIENTS: readonly Address[] = [
  { name: 'Jiwoo Han', address: 'jiwoo@letterbox.example' },
  { name: '한지우', address: 'jiwoo.han@letterbox.example' },
  { name: '中村 さくら', address: 'sakura.nakamura@letterbox.example' },
  { name: 'Olivia Brown', address: 'olivia@letterbox.example' },
  { name: '윤도현', address: 'dohyun.yoon@letterbox.example' },
];
