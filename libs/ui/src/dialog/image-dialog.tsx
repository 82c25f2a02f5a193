import { Modal } from './modal';
import styles from './dialog.module.css';

export interface ImageDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The dialog's title, e.g. 'Payment Receipt'. */
  title: string;
  src: string;
  alt: string;
}

/** Shows one image large (a payment receipt) in a dialog. */
export function ImageDialog({ open, onOpenChange, title, src, alt }: ImageDialogProps) {
  return (
    <Modal open={open} onOpenChange={onOpenChange} title={title}>
      <img src={src} alt={alt} className={styles['image']} />
    </Modal>
  );
}
