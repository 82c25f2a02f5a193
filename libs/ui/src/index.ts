export { Rating, type RatingProps } from './rating/rating';
export { MessageBox, type MessageBoxProps, type MessageVariant } from './feedback/message-box';
export { LoadingBox } from './feedback/loading-box';
