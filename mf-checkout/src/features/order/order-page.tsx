import { ORDERS_API, type Order } from '@shop/contracts';
import { apiFetch, formatDate, formatPrice, siteSettingsAtom } from '@shop/state';
import { Button, ConfirmDialog, ImageDialog, LoadingBox, MessageBox, showToast, useAction } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import { Card } from '../../shared/card';
import shared from '../../shared/checkout.module.css';
import { OrderLines } from '../../shared/order-lines';
import { OrderSummary } from '../../shared/order-summary';
import { ShippingDetails } from '../../shared/shipping-details';
import styles from './order-page.module.css';
import { OrderStatusBadge } from './order-status-badge';
import { ReceiptUploadDialog } from './receipt-upload-dialog';
import { ORDER_NOT_FOUND, useOrder } from './use-order';
import { useWallet } from './use-wallet';
import { WalletPanel } from './wallet-panel';

/**
 * Order detail /order/{id} (docs/product/screens.md, "Order detail"): shipping, delivery, payment, items,
 * summary; unpaid orders are paid, or cancelled, here.
 */
export default function OrderPage() {
  const { id = '' } = useParams();
  const { state, replace } = useOrder(id);

  return (
    <section className={shared['page']}>
      <title>{state.status === 'loaded' ? `Order ${state.order._id}` : 'Order'}</title>
      {state.status === 'loaded' ? (
        <OrderDetail order={state.order} onChange={replace} />
      ) : (
        <>
          <h1>Order</h1>
          {state.status === 'loading' && <LoadingBox />}
          {state.status === 'not-found' && <MessageBox variant="danger">{ORDER_NOT_FOUND}</MessageBox>}
          {state.status === 'failed' && <MessageBox variant="danger">{state.message}</MessageBox>}
        </>
      )}
    </section>
  );
}

function OrderDetail({ order, onChange }: { order: Order; onChange: (order: Order) => void }) {
  const { currency } = useAtomValue(siteSettingsAtom);
  const payable = !order.isPaid && !order.isCancelled;
  const wallet = useWallet(order.paymentMethod, payable);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [receiptOpen, setReceiptOpen] = useState(false);
  const [cancelOpen, setCancelOpen] = useState(false);
  const { run } = useAction();

  const cancel = () =>
    run(async () => {
      onChange(await apiFetch<Order>(`${ORDERS_API}/${order._id}/cancel`, { method: 'PUT' }));
      showToast('success', 'Order cancelled');
    });

  return (
    <>
      <h1 className={styles['title']}>Order {order._id}</h1>
      <div className={shared['columns']}>
        <div className={shared['stack']}>
          <Card id="order-shipping" title="Shipping">
            <ShippingDetails to={order.shippingAddress} />
            <p>
              {order.isDelivered ? (
                <span className={`${styles['badge']} ${styles['good']}`}>
                  Delivered at {formatDate(order.deliveredAt)}
                </span>
              ) : (
                <span className={`${styles['badge']} ${styles['bad']}`}>Not Delivered</span>
              )}
            </p>
          </Card>
          <Card id="order-payment" title="Payment">
            <p>
              <strong>Method:</strong> {order.paymentMethod}
            </p>
            <p>
              <strong>Status:</strong> <OrderStatusBadge status={order.status} />
            </p>
            {order.isCancelled && (
              <p>
                <span className={`${styles['badge']} ${styles['bad']}`}>
                  Cancelled at {formatDate(order.cancelledAt)}
                </span>
              </p>
            )}
            {order.isPaid && (
              <p>
                <strong>Paid at:</strong> {formatDate(order.paidAt)}
              </p>
            )}
            {order.refunds.length > 0 && (
              <div>
                <p>
                  <strong>Refunded:</strong> {formatPrice(order.refundedCents / 100, currency)} of{' '}
                  {formatPrice(order.totalPrice, currency)}
                </p>
                <ul aria-label="Refunds" className={styles['refunds']}>
                  {order.refunds.map((refund) => (
                    <li key={refund._id}>
                      {formatPrice(refund.amountCents / 100, currency)} on {formatDate(refund.refundedAt)},
                      reference {refund.reference}
                    </li>
                  ))}
                </ul>
              </div>
            )}
            {order.paymentReceipt && (
              <>
                <button
                  type="button"
                  className={styles['receipt']}
                  aria-label="View payment receipt"
                  onClick={() => setReceiptOpen(true)}
                >
                  <img
                    src={order.paymentReceipt}
                    alt=""
                    width={96}
                    height={96}
                    loading="lazy"
                    className={styles['receiptThumb']}
                  />
                </button>
                <ImageDialog
                  open={receiptOpen}
                  onOpenChange={setReceiptOpen}
                  title="Payment Receipt"
                  src={order.paymentReceipt}
                  alt={`Payment receipt of order ${order._id}`}
                />
              </>
            )}
          </Card>
          <Card id="order-items" title="Items">
            <OrderLines lines={order.orderItems} currency={currency} />
          </Card>
        </div>
        <div className={shared['stack']}>
          <Card id="order-summary" title="Order Summary">
            <OrderSummary prices={order} currency={currency} />
          </Card>
          {payable && (
            <Card id="order-wallet" title={`Pay with ${order.paymentMethod}`}>
              <WalletPanel state={wallet} />
              <Button className={shared['wide']} onClick={() => setUploadOpen(true)}>
                Upload Receipt
              </Button>
              <ReceiptUploadDialog
                open={uploadOpen}
                onOpenChange={setUploadOpen}
                orderId={order._id}
                onPaid={onChange}
              />
              <Button variant="secondary" className={shared['wide']} onClick={() => setCancelOpen(true)}>
                Cancel Order
              </Button>
              <ConfirmDialog
                open={cancelOpen}
                onOpenChange={setCancelOpen}
                title="Cancel this order?"
                description="Its items go back on sale, and it can no longer be paid."
                confirmLabel="Cancel Order"
                dismissLabel="Keep Order"
                onConfirm={cancel}
              />
            </Card>
          )}
        </div>
      </div>
    </>
  );
}
