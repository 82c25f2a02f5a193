import { isMediaUrl } from '@shop/contracts';
import { ValidateBy } from 'class-validator';

const UPLOADED_IMAGE = 'must be an image uploaded to this shop (/api/media/...)';

/**
 * Only an image the media service stored (`isMediaUrl`): no other host, no `javascript:` or `file:`
 * URL. Refused as "`<field>` must be an image uploaded to this shop (/api/media/...)".
 */
export const IsMediaUrl = (): PropertyDecorator =>
  ValidateBy({
    name: 'isMediaUrl',
    validator: {
      validate: (value: unknown) => isMediaUrl(value),
      defaultMessage: () => `$property ${UPLOADED_IMAGE}`,
    },
  });

/** Like `IsMediaUrl`, or `''` for no image. */
export const IsMediaUrlOrEmpty = (): PropertyDecorator =>
  ValidateBy({
    name: 'isMediaUrlOrEmpty',
    validator: {
      validate: (value: unknown) => value === '' || isMediaUrl(value),
      defaultMessage: () => `$property ${UPLOADED_IMAGE} or empty`,
    },
  });
