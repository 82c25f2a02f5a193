import * as Dialog from '@radix-ui/react-dialog';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import styles from './dialog.module.css';

export interface ModalProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  /** Read out with the title; omit when the body speaks for itself. */
  description?: ReactNode;
  children?: ReactNode;
}

/**
 * The shop's dialog frame on Radix: focus moves in and is trapped, Escape and the close button close it,
 * and focus returns to whatever opened it.
 */
export function Modal({ open, onOpenChange, title, description, children }: ModalProps) {
  // Radix gives focus back to its own Trigger only; our dialogs are opened by any button, so remember it.
  const opener = useRef<HTMLElement | null>(null);
  useLayoutEffect(() => {
    if (open && document.activeElement instanceof HTMLElement) opener.current = document.activeElement;
  }, [open]);

  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className={styles['overlay']} />
        <Dialog.Content
          className={styles['content']}
          onCloseAutoFocus={(event) => {
            if (!opener.current?.isConnected) return;
            event.preventDefault();
            opener.current.focus();
          }}
          // Radix warns unless a description is named or explicitly absent.
          {...(description === undefined ? { 'aria-describedby': undefined } : {})}
        >
          <Dialog.Title className={styles['title']}>{title}</Dialog.Title>
          {description !== undefined && (
            <Dialog.Description className={styles['description']}>{description}</Dialog.Description>
          )}
          {children}
          <Dialog.Close className={styles['close']} aria-label="Close">
            <span aria-hidden="true">×</span>
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

export const modalStyles = styles;
