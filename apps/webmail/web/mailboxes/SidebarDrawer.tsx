import { useEffect, useRef, type KeyboardEvent, type MouseEvent, type ReactNode, type RefObject } from 'react';

/** The width under which the sidebar is a drawer, as in styles/phone.css. */
const PHONE_WIDTH = '(max-width: 599px)';
const FOCUSABLE = 'a[href], button:not(:disabled), input:not(:disabled), select:not(:disabled), textarea, [tabindex="0"]';

interface Props {
  open: boolean;
  /** What the open drawer is called to a screen reader. */
  label: string;
  /** The menu button that opens it: focus returns there on close. */
  opener: RefObject<HTMLButtonElement | null>;
  onClose(): void;
  children: ReactNode;
}

/**
 * The sidebar beside the list; on a phone, a drawer over it, opened by the top bar's menu button. The open drawer is
 * modal: focus moves in (to the current mailbox) and stays (Tab goes round), and Escape, a tap outside or choosing a
 * mailbox closes it, focus going back to the menu button.
 */
export function SidebarDrawer({ open, label, opener, onClose, children }: Props) {
  const drawer = useRef<HTMLElement>(null);

  useEffect(() => {
    if (!open) return;
    const inside = drawer.current;
    (inside?.querySelector<HTMLElement>('a[aria-current="page"]') ?? focusables(inside)[0])?.focus();
    const returnTo = opener.current;
    return () => returnTo?.focus();
  }, [open, opener]);

  // Wider than a phone there is no drawer to close: one left open (a turned tablet) closes by itself.
  useEffect(() => {
    if (!open) return;
    const phone = matchMedia(PHONE_WIDTH);
    const widened = () => {
      if (!phone.matches) onClose();
    };
    phone.addEventListener('change', widened);
    return () => phone.removeEventListener('change', widened);
  }, [open, onClose]);

  function keepFocus(event: KeyboardEvent<HTMLElement>) {
    if (!open) return;
    if (event.key === 'Escape') {
      event.preventDefault();
      onClose();
      return;
    }
    if (event.key !== 'Tab') return;
    const inside = focusables(drawer.current);
    const first = inside[0];
    const last = inside[inside.length - 1];
    if (event.shiftKey && document.activeElement === first) {
      event.preventDefault();
      last?.focus();
    } else if (!event.shiftKey && document.activeElement === last) {
      event.preventDefault();
      first?.focus();
    }
  }

  function closeOnChoice(event: MouseEvent<HTMLElement>) {
    if (open && (event.target as Element).closest('a[href]')) onClose();
  }

  return (
    <>
      <aside
        ref={drawer}
        id="mailbox-drawer"
        className="sidebar"
        data-open={open || undefined}
        role={open ? 'dialog' : undefined}
        aria-modal={open || undefined}
        aria-label={open ? label : undefined}
        onKeyDown={keepFocus}
        onClick={closeOnChoice}
      >
        {children}
      </aside>
      {open && <div className="drawer-backdrop" onClick={onClose} />}
    </>
  );
}

function focusables(root: HTMLElement | null): HTMLElement[] {
  if (!root) return [];
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter((element) => element.offsetParent !== null);
}
