import type { ButtonHTMLAttributes } from 'react';
import { Icon, type IconName } from './Icon';

interface Props extends Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'aria-label' | 'children'> {
  icon: IconName;
  /** Its accessible name, shown as its tooltip on hover and keyboard focus. */
  label: string;
}

/** A toolbar's button drawn as an icon: named for screen readers, and told in a tooltip to everyone else. */
export function IconButton({ icon, label, className, type = 'button', ...button }: Props) {
  return (
    <button {...button} type={type} className={`icon-button${className ? ` ${className}` : ''}`} aria-label={label} data-tooltip={label}>
      <Icon name={icon} />
    </button>
  );
}
