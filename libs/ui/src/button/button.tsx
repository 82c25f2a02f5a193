import type { ButtonHTMLAttributes } from 'react';
import styles from './button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'danger';

/** The class names of the button look, for a link that acts as a button (`<Link className=…>`). */
export function buttonClass(variant: ButtonVariant = 'primary', className?: string): string {
  return [styles['button'], variant === 'secondary' ? undefined : styles[variant], className]
    .filter(Boolean)
    .join(' ');
}

export interface ButtonProps extends ButtonHTMLAttributes<HTMLButtonElement> {
  /** Primary (the default) for the screen's main action, secondary for the others, danger for removals. */
  variant?: ButtonVariant;
}

/** A button of the shop's look; `type` is "button" unless given (a form's submit says so). */
export function Button({ variant, className, type = 'button', ...props }: ButtonProps) {
  return <button type={type} className={buttonClass(variant, className)} {...props} />;
}
