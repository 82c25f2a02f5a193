import type { ShippingAddress } from '@shop/contracts';

/** Where an order goes: name, address and phone number, a line each. */
export function ShippingDetails({ to }: { to: ShippingAddress }) {
  return (
    <>
      <p>
        <strong>Name:</strong> {to.fullName}
      </p>
      <p>
        <strong>Address:</strong> {to.address}, {to.city}, {to.country}
      </p>
      <p>
        <strong>Phone Number:</strong> {to.phoneNumber}
      </p>
    </>
  );
}
