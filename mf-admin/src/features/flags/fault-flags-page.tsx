import {
  FEATURE_FLAGS_API,
  FLAG_OFF_VARIANT,
  type FeatureFlag,
  type SwitchFeatureFlagRequest,
} from '@shop/contracts';
import { apiFetch, formatDate } from '@shop/state';
import { LoadingBox, MessageBox, useApiGet } from '@shop/ui';
import shared from '../../shared/admin.module.css';
import { AdminScreen } from '../../shared/admin-screen';
import { useListAction } from '../../shared/use-list-action';

/** A variant as the choice reads: 'Off', or its name ('50%', '2s', 'products'). */
const variantLabel = (name: string) => (name === FLAG_OFF_VARIANT ? 'Off' : name);

/**
 * Fault Flags (docs/product/screens.md, "Fault Flags"; docs/observability.md, "Fault flags"): each flag
 * breaks one part of the running shop on purpose, for a drill or to watch the alerts fire; a switch
 * reaches every service within seconds, and the audit trail records it. The data service refuses
 * anyone but an admin, and any variant a flag does not have.
 */
export default function FaultFlagsPage() {
  const flags = useApiGet<FeatureFlag[]>(FEATURE_FLAGS_API);
  const { busy, act } = useListAction(flags.reload);

  const switchTo = (flag: FeatureFlag, variant: string) =>
    act(
      flag.key,
      () =>
        apiFetch<FeatureFlag>(`${FEATURE_FLAGS_API}/${flag.key}`, {
          method: 'PUT',
          body: { variant } satisfies SwitchFeatureFlagRequest,
        }),
      variant === FLAG_OFF_VARIANT ? `${flag.key} is off` : `${flag.key} switched to ${variant}`,
    );

  return (
    <AdminScreen title="Fault Flags">
      <p className={shared['note']}>
        Each flag breaks one part of the running shop on purpose. Every service follows a switch within
        seconds; switch a flag back to Off to restore the shop.
      </p>
      {flags.status === 'loading' ? (
        <LoadingBox />
      ) : flags.status === 'failed' ? (
        <MessageBox variant="danger">{flags.message}</MessageBox>
      ) : (
        <div className={shared['tableFrame']} role="region" aria-label="Fault flags" tabIndex={0}>
          <table className={shared['table']} aria-busy={flags.refreshing}>
            <thead>
              <tr>
                <th scope="col">FLAG</th>
                <th scope="col">SERVICE</th>
                <th scope="col">STATE</th>
                <th scope="col">LAST SWITCHED</th>
              </tr>
            </thead>
            <tbody>
              {flags.response.data.map((flag) => (
                <tr key={flag.key}>
                  <th scope="row">
                    {flag.key}
                    <div className={shared['hint']}>{flag.description}</div>
                  </th>
                  <td>{flag.service}</td>
                  <td>
                    <select
                      className={shared['input']}
                      aria-label={`State of ${flag.key}`}
                      value={flag.variant}
                      disabled={busy === flag.key}
                      onChange={(event) => void switchTo(flag, event.target.value)}
                    >
                      {flag.variants.map((variant) => (
                        <option key={variant.name} value={variant.name}>
                          {variantLabel(variant.name)}
                        </option>
                      ))}
                    </select>
                  </td>
                  <td>{flag.switchedAt ? formatDate(flag.switchedAt) : '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </AdminScreen>
  );
}
