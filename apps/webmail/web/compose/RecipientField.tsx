import { useEffect, useState, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchContacts } from '../api/endpoints';
import { isAbort } from '../api/http';
import type { Contact } from '../api/types';

interface Props {
  id: string;
  label: string;
  value: string;
  error?: string;
  inputRef?: Ref<HTMLInputElement>;
  onChange(value: string): void;
}

const SUGGEST_AFTER_MS = 150;

/** The address being typed: what follows the last comma or semicolon. */
const typedPart = (value: string) => value.slice(Math.max(value.lastIndexOf(','), value.lastIndexOf(';')) + 1).trim();

/** A recipients field whose last address is completed from the people the user writes to and hears from. */
export function RecipientField({ id, label, value, error, inputRef, onChange }: Props) {
  const { t } = useTranslation();
  const [suggestions, setSuggestions] = useState<Contact[]>([]);
  const [active, setActive] = useState(0);
  const typed = typedPart(value);

  useEffect(() => {
    setActive(0);
    if (!typed) {
      setSuggestions([]);
      return;
    }
    const controller = new AbortController();
    const timer = setTimeout(() => {
      fetchContacts(typed, controller.signal).then(setSuggestions, (failure: unknown) => {
        if (!isAbort(failure)) setSuggestions([]);
      });
    }, SUGGEST_AFTER_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [typed]);

  const open = suggestions.length > 0 && !suggestions.some((contact) => contact.address === typed);

  function pick(contact: Contact) {
    const before = value.slice(0, Math.max(value.lastIndexOf(','), value.lastIndexOf(';')) + 1);
    onChange(`${before ? `${before} ` : ''}${contact.address}, `.replace(/^\s+/, ''));
    setSuggestions([]);
  }

  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (!open) return;
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((index) => (index + (event.key === 'ArrowDown' ? 1 : suggestions.length - 1)) % suggestions.length);
    } else if (event.key === 'Enter' || event.key === 'Tab') {
      event.preventDefault();
      pick(suggestions[active]);
    } else if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      setSuggestions([]);
    }
  }

  return (
    <div className="compose-field recipient-field">
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        ref={inputRef}
        type="text"
        inputMode="email"
        autoComplete="off"
        role="combobox"
        aria-expanded={open}
        aria-controls={`${id}-suggestions`}
        aria-activedescendant={open ? `${id}-suggestion-${active}` : undefined}
        placeholder={t('compose.recipientPlaceholder')}
        value={value}
        aria-invalid={Boolean(error)}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => onChange(event.target.value)}
        onKeyDown={onKeyDown}
        onBlur={() => setTimeout(() => setSuggestions([]), 150)}
      />
      {open && (
        <ul className="suggestions" role="listbox" id={`${id}-suggestions`} aria-label={t('compose.suggestions', { label })}>
          {suggestions.map((contact, index) => (
            <li
              key={contact.address}
              id={`${id}-suggestion-${index}`}
              role="option"
              aria-selected={index === active}
              onMouseDown={(event) => {
                event.preventDefault();
                pick(contact);
              }}
            >
              {contact.name ? `${contact.name} <${contact.address}>` : contact.address}
            </li>
          ))}
        </ul>
      )}
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
