import { useTranslation } from 'react-i18next';
import { MenuButton, type MenuEntry } from '../shared/MenuButton';
import type { ListOptions } from './useMailList';

interface Props {
  options: ListOptions;
  onChange(options: ListOptions): void;
}

type Filter = 'unreadOnly' | 'flaggedOnly' | 'withAttachments';
const FILTERS: Array<{ option: Filter; label: 'toolbar.unread' | 'toolbar.flagged' | 'toolbar.attachments' }> = [
  { option: 'unreadOnly', label: 'toolbar.unread' },
  { option: 'flaggedOnly', label: 'toolbar.flagged' },
  { option: 'withAttachments', label: 'toolbar.attachments' },
];

/** How the list shows (conversations or single mails), its filters and its order, in one menu; its button counts the filters that are on. */
export function ListFilterMenu({ options, onChange }: Props) {
  const { t } = useTranslation();
  const on = FILTERS.filter(({ option }) => options[option]).length;
  const order = (sort: ListOptions['sort'], label: string, startsGroup: boolean): MenuEntry => ({
    key: sort,
    label,
    kind: 'radio',
    checked: options.sort === sort,
    // Conversations come newest first.
    disabled: options.conversations,
    startsGroup,
    onSelect: () => onChange({ ...options, sort }),
  });
  const entries: MenuEntry[] = [
    {
      key: 'conversations',
      label: t('toolbar.conversations'),
      kind: 'checkbox',
      checked: options.conversations,
      onSelect: () => onChange({ ...options, conversations: !options.conversations }),
    },
    ...FILTERS.map(({ option, label }) => ({
      key: option,
      label: t(label),
      kind: 'checkbox' as const,
      checked: options[option],
      startsGroup: option === FILTERS[0].option,
      onSelect: () => onChange({ ...options, [option]: !options[option] }),
    })),
    order('-receivedAt', t('toolbar.newestFirst'), true),
    order('receivedAt', t('toolbar.oldestFirst'), false),
  ];
  return (
    <MenuButton
      icon="filter"
      label={on > 0 ? t('toolbar.filtersOn', { count: on }) : t('toolbar.filters')}
      badge={on > 0 ? String(on) : undefined}
      entries={entries}
    />
  );
}
