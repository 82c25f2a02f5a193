import { USERS_API, type UserSummary } from '@shop/contracts';
import { apiFetch, userInfoAtom } from '@shop/state';
import { Button } from '@shop/ui';
import { useAtomValue } from 'jotai';
import shared from '../../shared/admin.module.css';
import { ListScreen } from '../../shared/list-screen';
import { DeleteButton, DeleteDialog, useRowDeletion } from '../../shared/row-deletion';
import { useListAction } from '../../shared/use-list-action';
import { PAGE_SIZE, type ListPosition, usePagedList } from '../../shared/use-paged-list';

/** The users list's parameters (contracts: UserListQuery), oldest account first. */
const usersPath = ({ q, page }: ListPosition) =>
  `${USERS_API}/all-users?${new URLSearchParams({ ...(q && { q }), page: String(page), limit: String(PAGE_SIZE) })}`;

/** All Users (docs/product/screens.md, "All Users"): make admins, delete accounts (never your own). */
export default function AllUsersPage() {
  const me = useAtomValue(userInfoAtom);
  const list = usePagedList<UserSummary>(usersPath);
  const { busy, act } = useListAction(list.reload);
  const deletion = useRowDeletion<UserSummary>(
    act,
    (user) => `${USERS_API}/delete/${user._id}`,
    'User deleted successfully!',
  );

  const makeAdmin = (user: UserSummary) =>
    act(
      user._id,
      () => apiFetch<UserSummary>(`${USERS_API}/markadmin/${user._id}`, { method: 'PUT' }),
      'User made an admin successfully!',
    );

  return (
    <ListScreen
      title="All Users"
      note={
        <p className={shared['note']} id="make-admin-note">
          Make Admin takes effect at the user&apos;s next sign-in.
        </p>
      }
      searchHint="Finds the text in the name or e-mail address."
      list={list}
      noun="users"
      label="Users"
      columns={['NAME', 'EMAIL', 'ADMIN', 'ACTIONS']}
      rows={(items) =>
        items.map((user) => (
          <tr key={user._id}>
            <th scope="row">{user.name}</th>
            <td>{user.email}</td>
            <td>{user.isAdmin ? 'Yes' : 'No'}</td>
            <td>
              <div className={shared['actions']}>
                {!user.isAdmin && (
                  <Button
                    variant="secondary"
                    disabled={busy === user._id}
                    aria-label={`Make Admin ${user.email}`}
                    aria-describedby="make-admin-note"
                    onClick={() => makeAdmin(user)}
                  >
                    Make Admin
                  </Button>
                )}
                {user._id === me?._id ? (
                  <span className={shared['hint']}>You</span>
                ) : (
                  <DeleteButton
                    deletion={deletion}
                    row={user}
                    label={`Delete ${user.email}`}
                    disabled={busy === user._id}
                  />
                )}
              </div>
            </td>
          </tr>
        ))
      }
    >
      <DeleteDialog
        deletion={deletion}
        title="Delete user"
        description={`Delete the account of ${deletion.row?.name ?? ''} (${deletion.row?.email ?? ''})? They are signed out everywhere.`}
      />
    </ListScreen>
  );
}
