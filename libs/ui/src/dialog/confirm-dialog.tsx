import { useState, type ReactNode } from 'react';
import { Button } from '../button/button';
import { Modal } from './modal';
import styles from './dialog.module.css';

export interface ConfirmDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description: ReactNode;
  /** The confirming button's label, e.g. 'Delete'. */
  confirmLabel: string;
  /** The other button's label ('Cancel'; 'Keep Order' where the action itself is a cancellation). */
  dismissLabel?: string;
  /** Runs the action; the dialog stays open with its buttons disabled until it settles, then closes. */
  onConfirm: () => Promise<unknown> | void;
}

/**
 * Asks before a destructive action (admin deletes, cancelling an order); the dismissing button has the
 * focus first, so Enter never confirms.
 */
export function ConfirmDialog({
  open,
  onOpenChange,
  title,
  description,
  confirmLabel,
  dismissLabel = 'Cancel',
  onConfirm,
}: ConfirmDialogProps) {
  const [busy, setBusy] = useState(false);

  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
    } finally {
      setBusy(false);
      onOpenChange(false);
    }
  };

  return (
    <Modal
      open={open}
      onOpenChange={(next) => !busy && onOpenChange(next)}
      title={title}
      description={description}
    >
      <div className={styles['actions']}>
        <Button variant="secondary" disabled={busy} onClick={() => onOpenChange(false)}>
          {dismissLabel}
        </Button>
        <Button variant="danger" disabled={busy} onClick={confirm}>
          {confirmLabel}
        </Button>
      </div>
    </Modal>
  );
}
