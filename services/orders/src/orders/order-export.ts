import { type Stringifier, stringify } from 'csv-stringify';
import type { OrderRecord } from './order.schema';

/**
 * The fields an export reads: what its columns show, nothing of the outbox or the bookkeeping.
 */
export const EXPORT_FIELDS =
  '_id user orderItems shippingAddress paymentMethod itemsPrice taxPrice discount shippingPrice totalPrice ' +
  'isPaid paidAt isDelivered deliveredAt status cancelledAt refundedCents createdAt';

const iso = (date: Date | null | undefined): string => (date ? new Date(date).toISOString() : '');
const money = (amount: number | undefined): string => (amount ?? 0).toFixed(2);

/** The export's columns, in order: the header's name and how a stored order fills it. */
const COLUMNS: ReadonlyArray<readonly [string, (order: OrderRecord) => string]> = [
  ['Order', (order) => order._id.toHexString()],
  ['Placed at', (order) => iso(order.createdAt)],
  ['Customer', (order) => order.user],
  ['Full name', (order) => order.shippingAddress.fullName],
  ['Address', (order) => order.shippingAddress.address],
  ['City', (order) => order.shippingAddress.city],
  ['Country', (order) => order.shippingAddress.country],
  ['Phone', (order) => order.shippingAddress.phoneNumber],
  ['Items', (order) => order.orderItems.map((item) => `${item.quantity} x ${item.name}`).join('; ')],
  ['Units', (order) => String(order.orderItems.reduce((sum, item) => sum + item.quantity, 0))],
  ['Items price', (order) => money(order.itemsPrice)],
  ['Discount', (order) => money(order.discount)],
  ['Tax', (order) => money(order.taxPrice)],
  ['Shipping', (order) => money(order.shippingPrice)],
  ['Total', (order) => money(order.totalPrice)],
  ['Payment method', (order) => order.paymentMethod],
  ['Status', (order) => order.status],
  ['Paid at', (order) => iso(order.paidAt)],
  ['Delivered', (order) => (order.isDelivered ? 'yes' : 'no')],
  ['Delivered at', (order) => iso(order.deliveredAt)],
  ['Cancelled at', (order) => iso(order.cancelledAt)],
  ['Refunded', (order) => ((order.refundedCents ?? 0) / 100).toFixed(2)],
];

export const EXPORT_HEADER: readonly string[] = COLUMNS.map(([name]) => name);

/**
 * A cell a spreadsheet will not run: text starting with `=`, `+`, `-` or `@` (a formula to Excel,
 * LibreOffice and Google Sheets), or with a tab or carriage return (which some of them strip before
 * looking), gets a leading `'`, OWASP's "CSV injection" advice. A shopper types the name, address and
 * phone an admin later opens; `+44 20 …` reads `'+44 20 …` in the file and `+44 20 …` in the sheet.
 */
export function inertCell(value: string): string {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

/** One stored order as a row of the export, each cell made inert. */
export function exportRow(order: OrderRecord): string[] {
  return COLUMNS.map(([, cell]) => inertCell(cell(order)));
}

/**
 * The export's CSV writer: RFC 4180 (comma-separated, CRLF line ends, a field quoted when it holds a
 * comma, a quote or a line break, its quotes doubled), a UTF-8 byte order mark so a spreadsheet reads
 * the names' accents right, and the header row at once (the download starts before the first order is
 * read). Write `exportRow`s to it.
 */
export function exportCsvWriter(): Stringifier {
  const writer = stringify({ record_delimiter: 'windows', bom: true });
  writer.write([...EXPORT_HEADER]);
  return writer;
}
