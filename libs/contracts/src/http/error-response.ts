import type { Schema } from './api-types';

/** The one error shape every service and the gateway answer with. */
export type ErrorResponse = Schema<'ErrorResponseBody'>;

/** Header the gateway uses to carry the request's correlation id (Kong's correlation-id plugin). */
export const CORRELATION_ID_HEADER = 'kong-request-id';

/** Header the gateway sets to the client address it saw; services trust it, clients cannot forge it. */
export const CLIENT_IP_HEADER = 'x-real-ip';
