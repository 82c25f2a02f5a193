import { formatDate, formatPrice, siteSettingsAtom } from '@shop/state';
import { Button, LoadingBox, MessageBox } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import shared from '../../shared/checkout.module.css';
import styles from './order-history-page.module.css';
import { useMyOrders } from './use-my-orders';

function pageFrom(value: string | null): number {
  const page = Number(value);
  return Number.isSafeInteger(page) && page >= 1 ? page : 1;
}

/**
 * Order History (docs/product/screens.md, "Order History"): the customer's orders, newest first, a page
 * at a time (?page=).
 */
export default function OrderHistoryPage() {
  const [searchParams] = useSearchParams();
  const page = pageFrom(searchParams.get('page'));
  const state = useMyOrders(page);
  const { currency } = useAtomValue(siteSettingsAtom);
  const navigate = useNavigate();
  const pages = state.status === 'loaded' ? state.pageCount : 1;

  return (
    <section className={shared['page']}>
      <title>Order History</title>
      <h1>Order History</h1>
      {state.status === 'loading' && <LoadingBox />}
      {state.status === 'failed' && <MessageBox variant="danger">{state.message}</MessageBox>}
      {state.status === 'loaded' &&
        (state.total === 0 ? (
          <MessageBox>
            No orders yet. <Link to="/">Go Shopping</Link>
          </MessageBox>
        ) : (
          <>
            <table className={styles['table']}>
              <thead>
                <tr>
                  <th scope="col">ID</th>
                  <th scope="col">DATE</th>
                  <th scope="col">TOTAL</th>
                  <th scope="col">PAID</th>
                  <th scope="col">DELIVERED</th>
                  <th scope="col">ACTIONS</th>
                </tr>
              </thead>
              <tbody>
                {state.items.map((order) => (
                  <tr key={order._id}>
                    <td data-label="ID" className={styles['id']}>
                      {order._id}
                    </td>
                    <td data-label="DATE">{formatDate(order.createdAt)}</td>
                    <td data-label="TOTAL">{formatPrice(order.totalPrice, currency)}</td>
                    <td data-label="PAID">
                      {order.isPaid ? formatDate(order.paidAt) : 'No'}
                      {order.refundedCents > 0 &&
                        `, refunded ${formatPrice(order.refundedCents / 100, currency)}`}
                    </td>
                    <td data-label="DELIVERED">
                      {order.isCancelled
                        ? `Cancelled ${formatDate(order.cancelledAt)}`
                        : order.isDelivered
                          ? formatDate(order.deliveredAt)
                          : 'No'}
                    </td>
                    <td data-label="ACTIONS">
                      <Button
                        variant="secondary"
                        aria-label={`Details of order ${order._id}`}
                        onClick={() => navigate(`/order/${order._id}`)}
                      >
                        Details
                      </Button>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
            {pages > 1 && (
              <nav aria-label="Order history pages" className={styles['pager']}>
                {page > 1 ? <Link to={`?page=${page - 1}`}>Previous</Link> : <span />}
                <span>
                  Page {page} of {pages}
                </span>
                {page < pages ? <Link to={`?page=${page + 1}`}>Next</Link> : <span />}
              </nav>
            )}
          </>
        ))}
    </section>
  );
}
