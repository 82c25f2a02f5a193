export { Rating, type RatingProps } from './rating/rating';
export { MessageBox, type MessageBoxProps, type MessageVariant } from './feedback/message-box';
export { LoadingBox } from './feedback/loading-box';
export { Modal, type ModalProps, modalStyles } from './dialog/modal';
export { ConfirmDialog, type ConfirmDialogProps } from './dialog/confirm-dialog';
export { ImageDialog, type ImageDialogProps } from './dialog/image-dialog';
export { UploadProgress } from './upload/upload-progress';
export { type ImageUploadState, useImageUpload } from './upload/use-image-upload';
export { CARD_IMAGE_SIZES, PRODUCT_GRID_FIRST_ROW } from './grid/product-grid-layout';
