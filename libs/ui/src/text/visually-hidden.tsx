import type { ReactNode } from 'react';
import styles from './visually-hidden.module.css';

/**
 * Text read by screen readers and not drawn: a word that completes a label, or a heading the screen has
 * no room for.
 */
export function VisuallyHidden({
  as: Element = 'span',
  children,
}: {
  as?: 'span' | 'h1';
  children: ReactNode;
}) {
  return <Element className={styles['hidden']}>{children}</Element>;
}
