import { fixedWindowSchema } from '@shop/service-kit';

/** The uploads of one user in one fixed window; its id is `<user id>:<window start ms>`. */
export const UPLOAD_WINDOW_MODEL = 'UploadWindow';

export const uploadWindowSchema = fixedWindowSchema('upload_windows');
