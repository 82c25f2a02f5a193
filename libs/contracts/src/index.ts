export * from './products/product';
export * from './settings/site-settings';
export * from './http/error-response';
export * from './events/event-envelope';
export * from './events/product-updated.event';
