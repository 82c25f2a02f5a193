import { ADMIN_ACTION, type AdminActionData } from '@shop/contracts';
import type { ServiceUnderTest } from './service-under-test';

/**
 * The `admin.action` events a service under test published on one record, in the order they arrived,
 * once there are at least `count` (its `events` must include ADMIN_ACTION).
 */
export async function adminActionsOn(
  service: Pick<ServiceUnderTest, 'events' | 'waitForEvent'>,
  targetId: string,
  count: number,
): Promise<AdminActionData[]> {
  const found = () =>
    service.events
      .filter((event) => event.type === ADMIN_ACTION)
      .map((event) => event.data as AdminActionData)
      .filter((data) => data.target.id === targetId);
  if (count > 0) await service.waitForEvent(() => found().length >= count);
  return found();
}
