/** Small line icons drawn inline (no icon font, no emoji font needed), hidden from screen readers. */
const PATHS = {
  inbox: 'M3 13h5l2 3h4l2-3h5M5 5h14l2 8v6H3v-6z',
  sent: 'M3 11l18-8-8 18-2-8z',
  drafts: 'M4 20h4L19 9l-4-4L4 16zM14 6l4 4',
  spam: 'M12 3l9 16H3zM12 10v4M12 17v.5',
  trash: 'M4 7h16M9 7V4h6v3M6 7l1 13h10l1-13',
  folder: 'M3 6h6l2 2h10v11H3z',
  lock: 'M6 11h12v9H6zM9 11V8a3 3 0 0 1 6 0v3',
  clip: 'M16 7l-7 7a2 2 0 0 0 3 3l7-7a4 4 0 0 0-6-6l-7 7a6 6 0 0 0 8 8l6-6',
  file: 'M6 3h8l4 4v14H6zM14 3v4h4',
  bulletedList: 'M10 6h10M10 12h10M10 18h10M4.5 6h.01M4.5 12h.01M4.5 18h.01',
  numberedList: 'M10 6h10M10 12h10M10 18h10M4 4l1-1v5M3.5 14a1.2 1.2 0 0 1 2.2.6L3.5 18h2.5',
  menu: 'M4 6h16M4 12h16M4 18h16',
  settings: 'M12 9a3 3 0 1 0 0 6a3 3 0 0 0 0-6zM12 2v3M12 19v3M2 12h3M19 12h3M4.9 4.9L7 7M17 17l2.1 2.1M4.9 19.1L7 17M17 7l2.1-2.1',
  admin: 'M12 3l8 3v6c0 5-3.5 8-8 9c-4.5-1-8-4-8-9V6z',
  signOut: 'M10 4H5v16h5M14 8l4 4-4 4M18 12H9',
  search: 'M10.5 17a6.5 6.5 0 1 0 0-13 6.5 6.5 0 0 0 0 13zM15.5 15.5L21 21',
  filter: 'M3 5h18l-7 8v6l-4 2v-8z',
  more: 'M5 12h1M12 12h1M19 12h1',
  mail: 'M3 6h18v12H3zM3 6l9 7 9-7',
  mailOpen: 'M3 10l9-6 9 6v10H3zM3 10l9 6 9-6',
  flag: 'M5 21V4M5 4h12l-2 4 2 4H5',
  close: 'M6 6l12 12M18 6L6 18',
  back: 'M19 12H5M11 6l-6 6 6 6',
  reply: 'M9 14L4 9l5-5M4 9h10a6 6 0 0 1 6 6v4',
  replyAll: 'M12 14L7 9l5-5M7 14L2 9l5-5M7 9h7a6 6 0 0 1 6 6v4',
  forward: 'M15 14l5-5-5-5M20 9H10a6 6 0 0 0-6 6v4',
  move: 'M3 6h6l2 2h10v11H3zM9 13.5h7M13 10.5l3 3-3 3',
  print: 'M6 9V3h12v6M6 18H4v-7h16v7h-2M6 14h12v7H6z',
  download: 'M12 3v12M7 10l5 5 5-5M4 21h16',
} as const;

export type IconName = keyof typeof PATHS;

export function Icon({ name, className }: { name: IconName; className?: string }) {
  return (
    <svg className={`icon-svg${className ? ` ${className}` : ''}`} viewBox="0 0 24 24" width="16" height="16" aria-hidden="true" focusable="false">
      <path d={PATHS[name]} fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" />
    </svg>
  );
}
