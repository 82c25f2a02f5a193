import { USERS_API, type UserSummary } from '@shop/contracts';
import { apiFetch, userInfoAtom } from '@shop/state';
import { Button, ConfirmDialog } from '@shop/ui';
import { useAtomValue } from 'jotai';
import { useState } from 'react';
import shared from '../../shared/admin.module.css';
import { SearchForm } from '../../shared/list-controls';
import { PagedTable } from '../../shared/paged-table';
import { useListAction } from '../../shared/use-list-action';
import { PAGE_SIZE, type ListPosition, usePagedList } from '../../shared/use-paged-list';

/** The users list's parameters (contracts: UserListQuery), oldest account first. */
const usersPath = ({ q, page }: ListPosition) =>
  `${USERS_API}/all-users?${new URLSearchParams({ ...(q && { q }), page: String(page), limit: String(PAGE_SIZE) })}`;

/** All Users (spec §2, admin): make admins, delete accounts (never your own). */
export default function AllUsersPage() {
  const me = useAtomValue(userInfoAtom);
  const { state, position, go, reload } = usePagedList<UserSummary>(usersPath);
  const [doomed, setDoomed] = useState<UserSummary>();
  const { busy, act } = useListAction(reload);

  const makeAdmin = (user: UserSummary) =>
    act(
      user._id,
      () => apiFetch<UserSummary>(`${USERS_API}/markadmin/${user._id}`, { method: 'PUT' }),
      'User made an admin successfully!',
    );

  const remove = (user: UserSummary) =>
    act(
      user._id,
      () => apiFetch(`${USERS_API}/delete/${user._id}`, { method: 'DELETE' }),
      'User deleted successfully!',
    );

  return (
    <section className={shared['page']}>
      <title>All Users</title>
      <h1 className={shared['heading']}>All Users</h1>
      <p className={shared['note']} id="make-admin-note">
        Make Admin takes effect at the user&apos;s next sign-in.
      </p>
      <div className={shared['toolbar']}>
        <SearchForm
          key={position.q}
          subject="users"
          value={position.q}
          hint="Finds the text in the name or e-mail address."
          onSearch={(q) => go({ q })}
        />
      </div>
      <PagedTable
        list={{ state, position, go }}
        noun="users"
        label="Users"
        head={
          <>
            <th scope="col">NAME</th>
            <th scope="col">EMAIL</th>
            <th scope="col">ADMIN</th>
            <th scope="col">ACTIONS</th>
          </>
        }
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
                    <Button
                      variant="danger"
                      disabled={busy === user._id}
                      aria-label={`Delete ${user.email}`}
                      onClick={() => setDoomed(user)}
                    >
                      Delete
                    </Button>
                  )}
                </div>
              </td>
            </tr>
          ))
        }
      />
      <ConfirmDialog
        open={doomed !== undefined}
        onOpenChange={(open) => !open && setDoomed(undefined)}
        title="Delete user"
        description={`Delete the account of ${doomed?.name ?? ''} (${doomed?.email ?? ''})? They are signed out everywhere.`}
        confirmLabel="Delete"
        onConfirm={() => (doomed ? remove(doomed) : undefined)}
      />
    </section>
  );
}
