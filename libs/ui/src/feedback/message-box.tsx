import type { ReactNode } from 'react';
import styles from './message-box.module.css';

export type MessageVariant = 'danger' | 'info' | 'success' | 'warning';

export interface MessageBoxProps {
  variant?: MessageVariant;
  children: ReactNode;
}

/** A coloured alert; 'danger' is the red alert screens show on a failed call. */
export function MessageBox({ variant = 'info', children }: MessageBoxProps) {
  return (
    <div role={variant === 'danger' ? 'alert' : 'status'} className={`${styles['box']} ${styles[variant]}`}>
      {children}
    </div>
  );
}
