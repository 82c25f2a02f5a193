import {
  MEDIA_ACCEPTED_TYPES,
  MEDIA_MAX_BYTES,
  MEDIA_MESSAGES,
  ORDERS_API,
  type Order,
  type PayOrderRequest,
} from '@shop/contracts';
import { apiFetch } from '@shop/state';
import {
  Button,
  errorMessage,
  MessageBox,
  Modal,
  modalStyles,
  UploadProgress,
  useImageUpload,
} from '@shop/ui';
import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import styles from './order-page.module.css';

const MESSAGES = {
  selectReceipt: 'Please select a receipt to upload',
  uploaded: 'Receipt uploaded successfully',
  uploadFailed: 'Failed to upload receipt',
  paid: 'Order is paid',
} as const;

export interface ReceiptUploadDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  orderId: string;
  /** Told the server's answer once the order is marked paid. */
  onPaid: (order: Order) => void;
}

/**
 * 'Upload Receipt' (docs/product/screens.md, "Order detail"): choose an image, watch the upload's percentage,
 * then 'Mark Order As Paid' sends it with `PUT /api/orders/{id}/pay`. Messages show in the dialog as well as
 * in a toast: the modal dialog hides the rest of the page, toasts included, from screen readers.
 */
export function ReceiptUploadDialog({ open, onOpenChange, orderId, onPaid }: ReceiptUploadDialogProps) {
  const { state, upload, reset } = useImageUpload();
  const [file, setFile] = useState<File | undefined>(undefined);
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [marking, setMarking] = useState(false);

  const changeOpen = (next: boolean) => {
    if (marking) return;
    if (!next) {
      reset();
      setFile(undefined);
      setProblem(undefined);
    }
    onOpenChange(next);
  };

  const onUpload = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file) {
      setProblem(MESSAGES.selectReceipt);
      toast.error(MESSAGES.selectReceipt);
      return;
    }
    // The media service refuses it anyway; saying so first spares sending megabytes for nothing.
    if (file.size > MEDIA_MAX_BYTES) {
      setProblem(MEDIA_MESSAGES.tooLarge);
      toast.error(MESSAGES.uploadFailed);
      return;
    }
    setProblem(undefined);
    if (await upload(file)) toast.success(MESSAGES.uploaded);
    else toast.error(MESSAGES.uploadFailed);
  };

  const markPaid = async (receiptUrl: string) => {
    setMarking(true);
    setProblem(undefined);
    try {
      const order = await apiFetch<Order>(`${ORDERS_API}/${orderId}/pay`, {
        method: 'PUT',
        body: { orderId, receiptUrl } satisfies PayOrderRequest,
      });
      toast.success(MESSAGES.paid);
      setMarking(false);
      onPaid(order);
      changeOpen(false);
    } catch (error) {
      setMarking(false);
      setProblem(errorMessage(error));
      toast.error(errorMessage(error));
    }
  };

  const uploading = state.status === 'uploading';
  return (
    <Modal open={open} onOpenChange={changeOpen} title="Upload Receipt">
      {state.status === 'done' ? (
        <>
          <MessageBox variant="success">{MESSAGES.uploaded}</MessageBox>
          {problem && <MessageBox variant="danger">{problem}</MessageBox>}
          <div className={modalStyles['actions']}>
            <Button disabled={marking} onClick={() => void markPaid(state.url)}>
              Mark Order As Paid
            </Button>
          </div>
        </>
      ) : (
        <form onSubmit={onUpload} noValidate>
          <label htmlFor="receipt-file" className={styles['fileLabel']}>
            Payment receipt (an image, 3 MB at most)
          </label>
          <input
            id="receipt-file"
            type="file"
            accept={MEDIA_ACCEPTED_TYPES.join(',')}
            className={styles['file']}
            disabled={uploading}
            onChange={(event) => {
              setFile(event.target.files?.[0]);
              setProblem(undefined);
            }}
          />
          {uploading && <UploadProgress value={state.progress} label="Receipt upload" />}
          {state.status === 'failed' && <MessageBox variant="danger">{state.message}</MessageBox>}
          {problem && <MessageBox variant="danger">{problem}</MessageBox>}
          <div className={modalStyles['actions']}>
            <Button type="submit" disabled={uploading}>
              {uploading ? 'Uploading...' : 'Upload'}
            </Button>
          </div>
        </form>
      )}
    </Modal>
  );
}
