export { Rating, type RatingProps } from './rating/rating';
export { MessageBox, type MessageBoxProps, type MessageVariant } from './feedback/message-box';
export { LoadingBox } from './feedback/loading-box';
export { DeferredToastContainer, showToast } from './feedback/toasts';
export { type ActionOptions, useAction } from './action/use-action';
export { VisuallyHidden } from './text/visually-hidden';
export { Modal, type ModalProps, modalStyles } from './dialog/modal';
export { ConfirmDialog, type ConfirmDialogProps } from './dialog/confirm-dialog';
export { ImageDialog, type ImageDialogProps } from './dialog/image-dialog';
export { UploadProgress } from './upload/upload-progress';
export { type ImageUploadState, useImageUpload } from './upload/use-image-upload';
export { CARD_IMAGE_SIZES, PRODUCT_GRID_FIRST_ROW } from './grid/product-grid-layout';
export { type ButtonProps, type ButtonVariant, Button, buttonClass } from './button/button';
export { errorMessage, errorStatus, isAbort } from './data/error-message';
export {
  type ApiGet,
  type ApiGetControls,
  type ApiGetFailure,
  type ApiGetState,
  loadedList,
  useApiGet,
} from './data/use-api-get';
export { type PagedApiGetState, usePagedApiGet } from './data/use-paged-api-get';

export {
  serverAnswerFor,
  serverAnswersAtom,
  siteOriginAtom,
  unansweredReadsAtom,
} from './first-screen/server-answers.atoms';
export { useHydrated } from './first-screen/use-hydrated';
export {
  type TreePosition,
  atTreePosition,
  formatTreePosition,
  parseTreePosition,
} from './first-screen/tree-position';
