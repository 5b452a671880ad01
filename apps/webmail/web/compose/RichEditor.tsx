import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Icon } from '../shared/Icon';

interface Props {
  id: string;
  initialHtml: string;
  /** The editor's accessible name: the message's by default. */
  label?: string;
  onChange(html: string): void;
}

const COMMANDS = [
  { command: 'bold', label: 'compose.bold', text: 'B' },
  { command: 'italic', label: 'compose.italic', text: 'I' },
  { command: 'underline', label: 'compose.underline', text: 'U' },
  // Drawn, not written: a button's visible text must be part of its name (WCAG 2.5.3), and "1." is not in "Numbered list".
  { command: 'insertUnorderedList', label: 'compose.bulletedList', icon: 'bulletedList' },
  { command: 'insertOrderedList', label: 'compose.numberedList', icon: 'numberedList' },
] as const;

/** A small rich-text editor: the browser's own editing with a few formatting buttons. */
export function RichEditor({ id, initialHtml, label, onChange }: Props) {
  const { t } = useTranslation();
  const editor = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (editor.current) editor.current.innerHTML = initialHtml;
    // The editor owns its content from here on; only the first value is written.
  }, []);

  function run(command: string) {
    editor.current?.focus();
    document.execCommand(command);
    onChange(editor.current?.innerHTML ?? '');
  }

  return (
    <div className="rich-editor">
      <div className="editor-toolbar" role="toolbar" aria-label={t('compose.formatting')}>
        {COMMANDS.map((item) => (
          <button
            key={item.command}
            type="button"
            aria-label={t(item.label)}
            title={t(item.label)}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => run(item.command)}
          >
            {'icon' in item ? <Icon name={item.icon} /> : item.text}
          </button>
        ))}
      </div>
      <div
        id={id}
        ref={editor}
        className="editor-area"
        contentEditable
        role="textbox"
        aria-multiline="true"
        aria-label={label ?? t('compose.message')}
        tabIndex={0}
        onInput={(event) => onChange(event.currentTarget.innerHTML)}
      />
    </div>
  );
}
