import type { z } from 'zod';
import { ADMIN_ACTION, adminActionData } from './admin-action.event';
import {
  LOW_STOCK_THRESHOLD_UPDATED,
  lowStockThresholdUpdatedData,
} from './low-stock-threshold-updated.event';
import { ORDER_CANCELLED, orderCancelledData } from './order-cancelled.event';
import { ORDER_CREATED, orderCreatedData } from './order-created.event';
import { ORDER_DELETED, orderDeletedData } from './order-deleted.event';
import { ORDER_DELIVERED, orderDeliveredData } from './order-delivered.event';
import { ORDER_PAID, orderPaidData } from './order-paid.event';
import { ORDER_REFUNDED, orderRefundedData } from './order-refunded.event';
import { PRODUCT_DELETED, productDeletedData } from './product-deleted.event';
import { PRODUCT_LOW_STOCK, productLowStockData } from './product-low-stock.event';
import { PRODUCT_UPDATED, productUpdatedData } from './product-updated.event';
import { SETTINGS_UPDATED, settingsUpdatedData } from './settings-updated.event';
import { USER_DELETED, userDeletedData } from './user-deleted.event';
import { USER_PASSWORD_RESET, userPasswordResetData } from './user-password-reset.event';
import { USER_PROMOTED, userPromotedData } from './user-promoted.event';
import { WALLET_UPDATED, walletUpdatedData } from './wallet-updated.event';

/** What the shop declares of an event type besides its name. */
export interface EventTypeDeclaration {
  /** Its `data`: the zod schema that gives the TypeScript type and, for the contract tooling, the JSON Schema. */
  readonly data: z.ZodType;
  /**
   * The schema version of that data this build writes and reads. Adding an optional field keeps the
   * version (consumers ignore fields they do not know); a change an older consumer would misread (a field
   * removed, renamed or given another meaning) raises it, and consumers learn it before producers send it
   * (docs/decisions/0013-event-compatibility.md).
   */
  readonly version: number;
}

/**
 * Every event type the services publish, listed once: each is declared in its own file (its name, its
 * data, its envelope's type) and named here with its current version. The versions the services stamp
 * (`eventSchemaVersion`) and the payloads of the AsyncAPI documents (`@shop/contracts/message-schemas`)
 * both come from this list.
 */
export const EVENT_TYPES: Readonly<Record<string, EventTypeDeclaration>> = {
  [ORDER_CREATED]: { data: orderCreatedData, version: 1 },
  [ORDER_PAID]: { data: orderPaidData, version: 1 },
  [ORDER_DELIVERED]: { data: orderDeliveredData, version: 1 },
  [ORDER_CANCELLED]: { data: orderCancelledData, version: 1 },
  [ORDER_REFUNDED]: { data: orderRefundedData, version: 1 },
  [ORDER_DELETED]: { data: orderDeletedData, version: 1 },
  [PRODUCT_UPDATED]: { data: productUpdatedData, version: 1 },
  [PRODUCT_DELETED]: { data: productDeletedData, version: 1 },
  [PRODUCT_LOW_STOCK]: { data: productLowStockData, version: 1 },
  [LOW_STOCK_THRESHOLD_UPDATED]: { data: lowStockThresholdUpdatedData, version: 1 },
  [SETTINGS_UPDATED]: { data: settingsUpdatedData, version: 1 },
  [USER_DELETED]: { data: userDeletedData, version: 1 },
  [USER_PROMOTED]: { data: userPromotedData, version: 1 },
  [USER_PASSWORD_RESET]: { data: userPasswordResetData, version: 1 },
  [WALLET_UPDATED]: { data: walletUpdatedData, version: 1 },
  [ADMIN_ACTION]: { data: adminActionData, version: 1 },
};
