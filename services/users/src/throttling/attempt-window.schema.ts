import { fixedWindowSchema } from '@shop/service-kit';

/**
 * One fixed window of attempts of one action by one account or one client address; its id is
 * `<action>:<scope>:<sha256 of the key>:<window start ms>`.
 */
export const ATTEMPT_WINDOW_MODEL = 'AttemptWindow';

export const attemptWindowSchema = fixedWindowSchema('attempt_windows');
