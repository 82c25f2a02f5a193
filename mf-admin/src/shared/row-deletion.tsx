import { apiFetch } from '@shop/state';
import { Button, ConfirmDialog } from '@shop/ui';
import { useState, type ReactNode } from 'react';
import type { ListAct } from './use-list-action';

export interface RowDeletion<T> {
  /** The row whose Delete was clicked, until the dialog is answered. */
  row: T | undefined;
  /** What a row's Delete button does: asks first. */
  ask: (row: T) => void;
  cancel: () => void;
  /** Deletes the row asked about. */
  confirm: () => Promise<void> | undefined;
}

/**
 * The Delete of an admin list (docs/product/screens.md, "Admin lists"): a row's Delete button asks, and once
 * the dialog is confirmed `DELETE path(row)` runs as a list action (its toast, the list refreshed in place).
 */
export function useRowDeletion<T extends { _id: string }>(
  act: ListAct,
  path: (row: T) => string,
  done: string,
): RowDeletion<T> {
  const [row, setRow] = useState<T>();
  return {
    row,
    ask: setRow,
    cancel: () => setRow(undefined),
    confirm: () => (row ? act(row._id, () => apiFetch(path(row), { method: 'DELETE' }), done) : undefined),
  };
}

export interface DeleteDialogProps<T> {
  deletion: RowDeletion<T>;
  title: string;
  description: ReactNode;
}

/** Asks before a row is deleted; Cancel (or Escape) keeps it. */
export function DeleteDialog<T>({ deletion, title, description }: DeleteDialogProps<T>) {
  return (
    <ConfirmDialog
      open={deletion.row !== undefined}
      onOpenChange={(open) => !open && deletion.cancel()}
      title={title}
      description={description}
      confirmLabel="Delete"
      onConfirm={deletion.confirm}
    />
  );
}

export interface DeleteButtonProps<T> {
  deletion: RowDeletion<T>;
  row: T;
  /** The button's accessible name, naming the row ('Delete order …'). */
  label: string;
  disabled?: boolean;
}

/** A row's Delete button: it opens the dialog that asks first. */
export function DeleteButton<T>({ deletion, row, label, disabled }: DeleteButtonProps<T>) {
  return (
    <Button variant="danger" disabled={disabled} aria-label={label} onClick={() => deletion.ask(row)}>
      Delete
    </Button>
  );
}
