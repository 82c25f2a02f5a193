import type { Order } from '@shop/contracts';
import { formatDate, siteSettingsAtom } from '@shop/state';
import { Button, ImageDialog, LoadingBox, MessageBox } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import { useParams } from 'react-router-dom';
import shared from '../../shared/checkout.module.css';
import { OrderLines } from '../../shared/order-lines';
import { OrderSummary } from '../../shared/order-summary';
import styles from './order-page.module.css';
import { OrderStatusBadge } from './order-status-badge';
import { ReceiptUploadDialog } from './receipt-upload-dialog';
import { ORDER_NOT_FOUND, useOrder } from './use-order';
import { useWallet } from './use-wallet';
import { WalletPanel } from './wallet-panel';

/** Order detail /order/{id} (spec §2): shipping, delivery, payment, items, summary; unpaid orders are paid here. */
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
  const wallet = useWallet(order.paymentMethod, !order.isPaid);
  const [uploadOpen, setUploadOpen] = useState(false);
  const [receiptOpen, setReceiptOpen] = useState(false);
  const { shippingAddress: to } = order;

  return (
    <>
      <h1 className={styles['title']}>Order {order._id}</h1>
      <div className={shared['columns']}>
        <div className={shared['stack']}>
          <section className={shared['card']} aria-labelledby="order-shipping">
            <h2 id="order-shipping">Shipping</h2>
            <p>
              <strong>Name:</strong> {to.fullName}
            </p>
            <p>
              <strong>Address:</strong> {to.address}, {to.city}, {to.country}
            </p>
            <p>
              <strong>Phone Number:</strong> {to.phoneNumber}
            </p>
            <p>
              {order.isDelivered ? (
                <span className={`${styles['badge']} ${styles['good']}`}>
                  Delivered at {formatDate(order.deliveredAt)}
                </span>
              ) : (
                <span className={`${styles['badge']} ${styles['bad']}`}>Not Delivered</span>
              )}
            </p>
          </section>
          <section className={shared['card']} aria-labelledby="order-payment">
            <h2 id="order-payment">Payment</h2>
            <p>
              <strong>Method:</strong> {order.paymentMethod}
            </p>
            <p>
              <strong>Status:</strong> <OrderStatusBadge status={order.status} />
            </p>
            {order.isPaid && (
              <p>
                <strong>Paid at:</strong> {formatDate(order.paidAt)}
              </p>
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
          </section>
          <section className={shared['card']} aria-labelledby="order-items">
            <h2 id="order-items">Items</h2>
            <OrderLines lines={order.orderItems} currency={currency} />
          </section>
        </div>
        <div className={shared['stack']}>
          <section className={shared['card']} aria-labelledby="order-summary">
            <h2 id="order-summary">Order Summary</h2>
            <OrderSummary prices={order} currency={currency} />
          </section>
          {!order.isPaid && (
            <section className={shared['card']} aria-labelledby="order-wallet">
              <h2 id="order-wallet">Pay with {order.paymentMethod}</h2>
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
            </section>
          )}
        </div>
      </div>
    </>
  );
}
