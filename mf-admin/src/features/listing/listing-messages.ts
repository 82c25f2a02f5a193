import { PRODUCT_MESSAGES } from '@shop/contracts';

/** The listing form's messages, word for word (docs/product/messages.md, "Admin toasts"). */
export const LISTING_MESSAGES = {
  noImage: PRODUCT_MESSAGES.noImage,
  tooManyImages: PRODUCT_MESSAGES.tooManyImages,
  uploadFailed: 'Image upload failed (3 mb max per image)',
  created: 'Product created to successfully!',
  updated: 'Product updated successfully!',
} as const;
