import { ORDER_ACTION_FROM, ORDERS_API, type Order } from '@shop/contracts';
import { apiFetch, formatPrice, siteSettingsAtom } from '@shop/state';
import { Button, ConfirmDialog, ImageDialog } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import shared from '../../shared/admin.module.css';
import { ListScreen } from '../../shared/list-screen';
import { DeleteButton, DeleteDialog, useRowDeletion } from '../../shared/row-deletion';
import { useDownload } from '../../shared/use-download';
import { useListAction } from '../../shared/use-list-action';
import { PAGE_SIZE, type ListPosition, usePagedList } from '../../shared/use-paged-list';
import styles from './all-orders-page.module.css';
import { OrderItemsMenu } from './order-items-menu';
import { RefundDialog, leftToRefund } from './refund-dialog';

/** The orders list's own parameter names (contracts: OrderListQuery), newest first. */
const ordersPath = ({ q, page }: ListPosition) =>
  `${ORDERS_API}?${new URLSearchParams({ ...(q && { q }), page: String(page), limit: String(PAGE_SIZE) })}`;

/** The export of the orders the search matches, every page of them (`GET api/orders/export`). */
const exportPath = (q: string) => `${ORDERS_API}/export${q ? `?${new URLSearchParams({ q })}` : ''}`;

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

type OrderCommand = 'markPaid' | 'deliver' | 'cancel';

const COMMANDS: Record<OrderCommand, { path: (id: string) => string; done: string }> = {
  markPaid: { path: (id) => `markpaid/${id}`, done: 'Order marked as paid successfully!' },
  deliver: { path: (id) => `delivered/${id}`, done: 'Order marked as delivered!' },
  cancel: { path: (id) => `${id}/cancel`, done: 'Order cancelled' },
};

/** A row's command on its order: named with the order's id, and waiting while the order is busy. */
function OrderButton(props: { order: Order; busy: string | undefined; label: string; onClick: () => void }) {
  const { order, busy, label, onClick } = props;
  return (
    <Button
      variant="secondary"
      disabled={busy === order._id}
      aria-label={`${label} order ${order._id}`}
      onClick={onClick}
    >
      {label}
    </Button>
  );
}

/**
 * All Orders (docs/product/screens.md, "All Orders"): confirm payments from their receipts, deliver,
 * cancel (before delivery), refund (a confirmed payment), delete.
 */
export default function AllOrdersPage() {
  const { currency } = useAtomValue(siteSettingsAtom);
  const list = usePagedList<Order>(ordersPath);
  const [receipt, setReceipt] = useState<string>();
  const [cancelling, setCancelling] = useState<Order>();
  const [refunding, setRefunding] = useState<Order>();
  const { busy, act } = useListAction(list.reload);
  const exporting = useDownload();
  const deletion = useRowDeletion<Order>(
    act,
    (order) => `${ORDERS_API}/delete/${order._id}`,
    'Order Deleted successfully!',
  );

  const run = (order: Order, command: OrderCommand) =>
    act(
      order._id,
      () => apiFetch<Order>(`${ORDERS_API}/${COMMANDS[command].path(order._id)}`, { method: 'PUT' }),
      COMMANDS[command].done,
    );

  return (
    <ListScreen
      title="All Orders"
      searchHint="Finds an order id, customer id, item name, shipping detail, payment method or status."
      list={list}
      noun="orders"
      label="Orders"
      actions={
        <Button
          variant="secondary"
          disabled={exporting.busy}
          onClick={() => exporting.download(exportPath(list.position.q), 'orders.csv')}
        >
          Export CSV
        </Button>
      }
      columns={[
        'ORDER ITEMS',
        { number: 'ITEMS PRICE' },
        { number: 'TAX PRICE' },
        { number: 'TOTAL PRICE' },
        'PAID',
        'STATUS',
        'RECEIPT',
        'DELIVERED',
        'ACTIONS',
      ]}
      rows={(items) =>
        items.map((order) => (
          <tr key={order._id}>
            <td>
              <OrderItemsMenu order={order} currency={currency} />
            </td>
            <td className={shared['number']}>{formatPrice(order.itemsPrice, currency)}</td>
            <td className={shared['number']}>{formatPrice(order.taxPrice, currency)}</td>
            <td className={shared['number']}>{formatPrice(order.totalPrice, currency)}</td>
            <td>{yesNo(order.isPaid)}</td>
            <td>
              <span className={styles['status']} data-status={order.status}>
                {order.status}
              </span>
              {order.isCancelled && (
                <span className={styles['status']} data-status="Cancelled">
                  Cancelled
                </span>
              )}
              {order.refundedCents > 0 && (
                <span className={styles['status']} data-status="Refunded">
                  {leftToRefund(order) > 0
                    ? `Refunded ${formatPrice(order.refundedCents / 100, currency)}`
                    : 'Refunded'}
                </span>
              )}
            </td>
            <td>
              {order.paymentReceipt ? (
                <button
                  type="button"
                  className={styles['receipt']}
                  aria-label={`View the payment receipt of order ${order._id}`}
                  onClick={() => setReceipt(order.paymentReceipt)}
                >
                  <img src={order.paymentReceipt} alt="" width={48} height={48} loading="lazy" />
                </button>
              ) : (
                'No Receipt'
              )}
            </td>
            <td>{yesNo(order.isDelivered)}</td>
            <td>
              <div className={shared['actions']}>
                {!order.isCancelled && ORDER_ACTION_FROM.markPaid.includes(order.status) && (
                  <OrderButton
                    order={order}
                    busy={busy}
                    label="Mark Paid"
                    onClick={() => run(order, 'markPaid')}
                  />
                )}
                {!order.isCancelled &&
                  ORDER_ACTION_FROM.deliver.includes(order.status) &&
                  !order.isDelivered && (
                    <OrderButton
                      order={order}
                      busy={busy}
                      label="Delivered"
                      onClick={() => run(order, 'deliver')}
                    />
                  )}
                {!order.isCancelled && !order.isDelivered && (
                  <OrderButton
                    order={order}
                    busy={busy}
                    label="Cancel"
                    onClick={() => setCancelling(order)}
                  />
                )}
                {order.status === 'Paid' && leftToRefund(order) > 0 && (
                  <OrderButton order={order} busy={busy} label="Refund" onClick={() => setRefunding(order)} />
                )}
                <DeleteButton
                  deletion={deletion}
                  row={order}
                  label={`Delete order ${order._id}`}
                  disabled={busy === order._id}
                />
              </div>
            </td>
          </tr>
        ))
      }
    >
      <ImageDialog
        open={receipt !== undefined}
        onOpenChange={(open) => !open && setReceipt(undefined)}
        title="Payment Receipt"
        src={receipt ?? ''}
        alt="Payment receipt"
      />
      <ConfirmDialog
        open={cancelling !== undefined}
        onOpenChange={(open) => !open && setCancelling(undefined)}
        title="Cancel order"
        description={`Cancel order ${cancelling?._id ?? ''}? Its items go back in stock.`}
        confirmLabel="Cancel Order"
        dismissLabel="Keep Order"
        onConfirm={() => cancelling && run(cancelling, 'cancel')}
      />
      <RefundDialog
        order={refunding}
        currency={currency}
        onClose={() => setRefunding(undefined)}
        onRefunded={list.reload}
      />
      <DeleteDialog
        deletion={deletion}
        title="Delete order"
        description={
          deletion.row?.isCancelled
            ? `Delete order ${deletion.row._id}? It was cancelled, so its items are back in stock already.`
            : deletion.row?.status === 'Paid'
              ? `Delete order ${deletion.row._id}? Its payment was confirmed, so its stock stays sold.`
              : `Delete order ${deletion.row?._id ?? ''}? Its items go back in stock.`
        }
      />
    </ListScreen>
  );
}
