import { ORDERS_API, type Order, toCents } from '@shop/contracts';
import { apiFetch, formatPrice } from '@shop/state';
import { Button, MessageBox, Modal, modalStyles, showToast } from '@shop/ui';
import { useId, useState } from 'react';
import shared from '../../shared/admin.module.css';
import { Field, InputField } from '../../shared/field';
import { useFormSubmit } from '../../shared/use-form-submit';

export interface RefundDialogProps {
  /** The paid order to refund; the dialog is closed while there is none. */
  order: Order | undefined;
  currency: string;
  onClose: () => void;
  onRefunded: () => void;
}

/** What is left of an order's total to refund, in cents. */
export const leftToRefund = (order: Order) => toCents(order.totalPrice) - (order.refundedCents ?? 0);

/**
 * Records a refund of a paid order (docs/product/rules.md, "Refunds"): the amount given back (what is left
 * of the total by default), its payment reference and the reason. A refusal stays in the dialog, in the
 * server's words, with what was typed.
 */
export function RefundDialog({ order, currency, onClose, onRefunded }: RefundDialogProps) {
  return (
    <Modal
      open={order !== undefined}
      onOpenChange={(open) => !open && onClose()}
      title="Refund order"
      description={
        order &&
        `Order ${order._id}: ${formatPrice(leftToRefund(order) / 100, currency)} of ${formatPrice(order.totalPrice, currency)} left to refund. The refund that completes the total of an undelivered order cancels it, and its items go back in stock.`
      }
    >
      {order && <RefundForm key={order._id} order={order} onClose={onClose} onRefunded={onRefunded} />}
    </Modal>
  );
}

function RefundForm({
  order,
  onClose,
  onRefunded,
}: {
  order: Order;
  onClose: () => void;
  onRefunded: () => void;
}) {
  const id = useId();
  const [amount, setAmount] = useState((leftToRefund(order) / 100).toFixed(2));
  const [reference, setReference] = useState('');
  const [reason, setReason] = useState('');
  const [refusal, setRefusal] = useState<string>();
  const { busy, submit } = useFormSubmit(
    async () => {
      setRefusal(undefined);
      await apiFetch<Order>(`${ORDERS_API}/${order._id}/refunds`, {
        method: 'POST',
        body: { amountCents: toCents(Number(amount)), reference, reason },
      });
      showToast('success', 'Refund recorded');
      onRefunded();
      onClose();
    },
    { onFailure: setRefusal },
  );

  return (
    <form className={shared['form']} onSubmit={submit} aria-label="Refund">
      {refusal && <MessageBox variant="danger">{refusal}</MessageBox>}
      <InputField
        id={`${id}-amount`}
        label="Amount"
        type="number"
        inputMode="decimal"
        min="0.01"
        max={(leftToRefund(order) / 100).toFixed(2)}
        step="0.01"
        required
        value={amount}
        onChange={setAmount}
      />
      <InputField
        id={`${id}-reference`}
        label="Payment reference"
        required
        maxLength={100}
        value={reference}
        onChange={setReference}
      />
      <Field id={`${id}-reason`} label="Reason">
        <textarea
          id={`${id}-reason`}
          className={shared['input']}
          required
          maxLength={500}
          rows={3}
          value={reason}
          onChange={(event) => setReason(event.target.value)}
        />
      </Field>
      <div className={modalStyles['actions']}>
        <Button variant="secondary" disabled={busy} onClick={onClose}>
          Cancel
        </Button>
        <Button type="submit" disabled={busy}>
          {busy ? 'Recording...' : 'Record Refund'}
        </Button>
      </div>
    </form>
  );
}
