import {
  ADMIN_ACTIONS,
  AUDIT_API,
  AUDIT_TARGET_TYPES,
  type AdminActionName,
  type AuditEntry,
  type AuditTargetType,
  USERS_API,
  type UserSummary,
} from '@shop/contracts';
import { formatDate } from '@shop/state';
import { VisuallyHidden, useApiGet } from '@shop/ui';
import shared from '../../shared/admin.module.css';
import { ListFilter, useListFilters } from '../../shared/list-controls';
import { ListScreen } from '../../shared/list-screen';
import { PAGE_SIZE, type ListPosition, usePagedList } from '../../shared/use-paged-list';
import styles from './audit-trail-page.module.css';

/** What each action reads as on the screen. */
export const ACTION_LABELS: Record<AdminActionName, string> = {
  'product.created': 'Product created',
  'product.updated': 'Product updated',
  'product.stock-changed': 'Stock changed',
  'product.deleted': 'Product deleted',
  'order.paid': 'Order marked paid',
  'order.delivered': 'Order delivered',
  'order.cancelled': 'Order cancelled',
  'order.refunded': 'Order refunded',
  'order.deleted': 'Order deleted',
  'user.promoted': 'User made admin',
  'user.deleted': 'User deleted',
  'wallet.updated': 'Wallet updated',
  'settings.updated': 'Website settings updated',
  'flag.switched': 'Fault flag switched',
};

const TARGET_LABELS: Record<AuditTargetType, string> = {
  product: 'Products',
  order: 'Orders',
  user: 'Users',
  wallet: 'Wallets',
  settings: 'Website settings',
  flag: 'Fault flags',
};

interface AuditFilters {
  action?: AdminActionName;
  targetType?: AuditTargetType;
  actorId?: string;
}

function readFilters(params: URLSearchParams): AuditFilters {
  const action = params.get('action');
  const targetType = params.get('targetType');
  const actorId = params.get('actorId');
  return {
    ...(ADMIN_ACTIONS.includes(action as AdminActionName) && { action: action as AdminActionName }),
    ...(AUDIT_TARGET_TYPES.includes(targetType as AuditTargetType) && {
      targetType: targetType as AuditTargetType,
    }),
    ...(actorId && { actorId }),
  };
}

/** The trail's own parameter names (contracts: AuditListQuery), newest first; the search is a record's id. */
const auditPath = ({ q, page }: ListPosition, filters: AuditFilters) =>
  `${AUDIT_API}?${new URLSearchParams({ ...filters, ...(q && { targetId: q }), page: String(page), limit: String(PAGE_SIZE) })}`;

/** The admins' e-mail addresses by id, to say who acted (an admin since removed shows as their id). */
const ADMINS_PATH = `${USERS_API}/all-users?${new URLSearchParams({ isAdmin: 'true', page: '1', limit: '100' })}`;

/** A recorded value as text: texts as they are, anything else as JSON, nothing as '—'. */
export function shownValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return '—';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The fields an entry changed: `field: before → after`, or the fields of what was created or deleted. */
function Changes({ entry }: { entry: AuditEntry }) {
  const before = entry.before ?? {};
  const after = entry.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])];
  if (fields.length === 0) return <span className={shared['hint']}>No field changed</span>;
  return (
    <ul className={styles['changes']}>
      {fields.map((field) => (
        <li key={field}>
          <span className={styles['field']}>{field}</span>:{' '}
          {entry.before === null ? (
            shownValue(after[field])
          ) : entry.after === null ? (
            shownValue(before[field])
          ) : (
            <>
              {shownValue(before[field])} <span aria-label="became">→</span> {shownValue(after[field])}
            </>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The trail's select filters: the parameter each sets, its label, and the values it offers. */
const SELECT_FILTERS = [
  { name: 'action', label: 'Action', anyLabel: 'All actions', values: ADMIN_ACTIONS, labels: ACTION_LABELS },
  {
    name: 'targetType',
    label: 'Record',
    anyLabel: 'All records',
    values: AUDIT_TARGET_TYPES,
    labels: TARGET_LABELS,
  },
] as const;

/** One filter of the trail: a select of every value it has, or 'All …' for no filter. */
function SelectFilter(props: {
  label: string;
  anyLabel: string;
  values: readonly string[];
  labels: Readonly<Record<string, string>>;
  value: string | undefined;
  onChange: (value: string) => void;
}) {
  const { label, anyLabel, values, labels, value, onChange } = props;
  return (
    <ListFilter>
      {label}
      <select value={value ?? ''} onChange={(event) => onChange(event.target.value)}>
        <option value="">{anyLabel}</option>
        {values.map((option) => (
          <option key={option} value={option}>
            {labels[option]}
          </option>
        ))}
      </select>
    </ListFilter>
  );
}

/**
 * Audit Trail (docs/product/screens.md, "Audit Trail"): what admins did, newest first, from the data
 * service's append-only trail; filtered by action, kind of record and admin, searched by a record's id.
 * Read-only: nothing on this screen or behind it changes an entry.
 */
export default function AuditTrailPage() {
  const { params, setFilter } = useListFilters<keyof AuditFilters>();
  const filters = readFilters(params);
  const list = usePagedList<AuditEntry>((position) => auditPath(position, filters));
  const admins = useApiGet<UserSummary[]>(ADMINS_PATH);
  const emailOf = (id: string) =>
    (admins.status === 'loaded' && admins.response.data.find((user) => user._id === id)?.email) || id;

  return (
    <ListScreen
      title="Audit Trail"
      searchHint="Finds the actions on one record: give its id (a product, order, user, wallet or settings id)."
      actions={
        <>
          {SELECT_FILTERS.map(({ name, ...select }) => (
            <SelectFilter
              key={name}
              {...select}
              value={filters[name]}
              onChange={(value) => setFilter(name, value)}
            />
          ))}
          {filters.actorId && (
            <button type="button" className={styles['chip']} onClick={() => setFilter('actorId', '')}>
              Only {emailOf(filters.actorId)} <span aria-hidden="true">×</span>
              <VisuallyHidden> (show every admin)</VisuallyHidden>
            </button>
          )}
        </>
      }
      list={list}
      noun="entries"
      label="Audit trail"
      columns={['WHEN', 'ADMIN', 'ACTION', 'RECORD', 'CHANGES']}
      rows={(items) =>
        items.map((entry) => (
          <tr key={entry._id}>
            <th scope="row">
              <time dateTime={entry.at}>{formatDate(entry.at)}</time>
            </th>
            <td>
              <button
                type="button"
                className={styles['link']}
                aria-label={`Only the actions of ${emailOf(entry.actorId)}`}
                onClick={() => setFilter('actorId', entry.actorId)}
              >
                {emailOf(entry.actorId)}
              </button>
            </td>
            <td>{ACTION_LABELS[entry.action] ?? entry.action}</td>
            <td>
              {entry.target.label}
              <div className={shared['hint']}>{entry.target.id}</div>
            </td>
            <td>
              <Changes entry={entry} />
            </td>
          </tr>
        ))
      }
    />
  );
}
