import { ORDER_ACTION_FROM, ORDERS_API, type Order } from '@shop/contracts';
import { apiFetch, formatPrice, siteSettingsAtom } from '@shop/state';
import { Button, ConfirmDialog, ImageDialog } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import shared from '../../shared/admin.module.css';
import { SearchForm } from '../../shared/list-controls';
import { PagedTable } from '../../shared/paged-table';
import { useListAction } from '../../shared/use-list-action';
import { PAGE_SIZE, type ListPosition, usePagedList } from '../../shared/use-paged-list';
import styles from './all-orders-page.module.css';
import { OrderItemsMenu } from './order-items-menu';

/** The orders list's own parameter names (contracts: OrderListQuery), newest first. */
const ordersPath = ({ q, page }: ListPosition) =>
  `${ORDERS_API}?${new URLSearchParams({ ...(q && { q }), page: String(page), limit: String(PAGE_SIZE) })}`;

const yesNo = (value: boolean) => (value ? 'Yes' : 'No');

type OrderCommand = 'markPaid' | 'deliver';

const COMMANDS: Record<OrderCommand, { path: string; done: string }> = {
  markPaid: { path: 'markpaid', done: 'Order marked as paid successfully!' },
  deliver: { path: 'delivered', done: 'Order marked as delivered!' },
};

/** All Orders (spec §2, admin): confirm payments from their receipts, deliver, delete. */
export default function AllOrdersPage() {
  const { currency } = useAtomValue(siteSettingsAtom);
  const { state, position, go, reload } = usePagedList<Order>(ordersPath);
  const [doomed, setDoomed] = useState<Order>();
  const [receipt, setReceipt] = useState<string>();
  const { busy, act } = useListAction(reload);

  const run = (order: Order, command: OrderCommand) =>
    act(
      order._id,
      () => apiFetch<Order>(`${ORDERS_API}/${COMMANDS[command].path}/${order._id}`, { method: 'PUT' }),
      COMMANDS[command].done,
    );

  const remove = (order: Order) =>
    act(
      order._id,
      () => apiFetch(`${ORDERS_API}/delete/${order._id}`, { method: 'DELETE' }),
      'Order Deleted successfully!',
    );

  return (
    <section className={shared['page']}>
      <title>All Orders</title>
      <h1 className={shared['heading']}>All Orders</h1>
      <div className={shared['toolbar']}>
        <SearchForm
          key={position.q}
          subject="orders"
          value={position.q}
          hint="Finds an order id, customer id, item name, shipping detail, payment method or status."
          onSearch={(q) => go({ q })}
        />
      </div>
      <PagedTable
        list={{ state, position, go }}
        noun="orders"
        label="Orders"
        head={
          <>
            <th scope="col">ORDER ITEMS</th>
            <th scope="col" className={shared['number']}>
              ITEMS PRICE
            </th>
            <th scope="col" className={shared['number']}>
              TAX PRICE
            </th>
            <th scope="col" className={shared['number']}>
              TOTAL PRICE
            </th>
            <th scope="col">PAID</th>
            <th scope="col">STATUS</th>
            <th scope="col">RECEIPT</th>
            <th scope="col">DELIVERED</th>
            <th scope="col">ACTIONS</th>
          </>
        }
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
                  {ORDER_ACTION_FROM.markPaid.includes(order.status) && (
                    <Button
                      variant="secondary"
                      disabled={busy === order._id}
                      aria-label={`Mark Paid order ${order._id}`}
                      onClick={() => run(order, 'markPaid')}
                    >
                      Mark Paid
                    </Button>
                  )}
                  {ORDER_ACTION_FROM.deliver.includes(order.status) && !order.isDelivered && (
                    <Button
                      variant="secondary"
                      disabled={busy === order._id}
                      aria-label={`Delivered order ${order._id}`}
                      onClick={() => run(order, 'deliver')}
                    >
                      Delivered
                    </Button>
                  )}
                  <Button
                    variant="danger"
                    disabled={busy === order._id}
                    aria-label={`Delete order ${order._id}`}
                    onClick={() => setDoomed(order)}
                  >
                    Delete
                  </Button>
                </div>
              </td>
            </tr>
          ))
        }
      />
      <ImageDialog
        open={receipt !== undefined}
        onOpenChange={(open) => !open && setReceipt(undefined)}
        title="Payment Receipt"
        src={receipt ?? ''}
        alt="Payment receipt"
      />
      <ConfirmDialog
        open={doomed !== undefined}
        onOpenChange={(open) => !open && setDoomed(undefined)}
        title="Delete order"
        description={
          doomed?.status === 'Paid'
            ? `Delete order ${doomed._id}? Its payment was confirmed, so its stock stays sold.`
            : `Delete order ${doomed?._id ?? ''}? Its items go back in stock.`
        }
        confirmLabel="Delete"
        onConfirm={() => (doomed ? remove(doomed) : undefined)}
      />
    </section>
  );
}
