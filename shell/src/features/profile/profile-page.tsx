import type { UserInfo } from '@shop/contracts';
import { apiFetch, userInfoAtom } from '@shop/state';
import { useAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { toast } from 'react-toastify';
import formStyles from '../../shared/form.module.css';
import { errorMessage } from '../../shared/error-message';
import { PASSWORDS_DO_NOT_MATCH } from '../../shared/passwords';
import { AdminFeaturesMenu } from './admin-features-menu';
import styles from './profile-page.module.css';

export const PROFILE_UPDATED = 'User updated successfully';

/** Body of `PUT api/users/profile`: an empty password keeps the current one. */
interface UpdateProfileRequest {
  name: string;
  email: string;
  password: string;
  currentPassword?: string;
}

/**
 * User Profile (spec §2): name, e-mail, new password twice; the current password is asked for when the
 * e-mail or the password changes. The answer's fresh token replaces the stored one (a new password ends
 * every other session). Admins also get the 'ADMIN FEATURES' menu.
 */
export function ProfilePage() {
  const [userInfo, setUserInfo] = useAtom(userInfoAtom);
  const [name, setName] = useState(userInfo?.name ?? '');
  const [email, setEmail] = useState(userInfo?.email ?? '');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const [currentPassword, setCurrentPassword] = useState('');
  const [submitting, setSubmitting] = useState(false);

  // The guard keeps signed-out visitors away; this is only for the moment a sign-out happens here.
  if (!userInfo) return null;
  const needsCurrentPassword = password !== '' || email.trim().toLowerCase() !== userInfo.email;

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password !== confirmPassword) {
      toast.error(PASSWORDS_DO_NOT_MATCH);
      return;
    }
    setSubmitting(true);
    try {
      const body: UpdateProfileRequest = {
        name,
        email,
        password,
        ...(needsCurrentPassword ? { currentPassword } : {}),
      };
      const updated = await apiFetch<UserInfo>('/api/users/profile', { method: 'PUT', body });
      setUserInfo(updated);
      setPassword('');
      setConfirmPassword('');
      setCurrentPassword('');
      toast.success(PROFILE_UPDATED);
    } catch (error) {
      toast.error(errorMessage(error));
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <section className={formStyles['page']}>
      <title>User Profile</title>
      <div className={styles['header']}>
        <h1>User Profile</h1>
        {userInfo.isAdmin && <AdminFeaturesMenu />}
      </div>
      <form className={formStyles['form']} onSubmit={onSubmit}>
        <label className={formStyles['field']}>
          Name
          <input required autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className={formStyles['field']}>
          Email
          <input
            type="email"
            required
            autoComplete="email"
            value={email}
            onChange={(e) => setEmail(e.target.value)}
          />
        </label>
        <div className={formStyles['field']}>
          <label htmlFor="profile-password">Password</label>
          <input
            id="profile-password"
            type="password"
            minLength={8}
            autoComplete="new-password"
            aria-describedby="profile-password-hint"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
          <p id="profile-password-hint" className={formStyles['hint']}>
            Leave empty to keep your current password.
          </p>
        </div>
        <label className={formStyles['field']}>
          Confirm Password
          <input
            type="password"
            autoComplete="new-password"
            value={confirmPassword}
            onChange={(e) => setConfirmPassword(e.target.value)}
          />
        </label>
        {needsCurrentPassword && (
          <div className={formStyles['field']}>
            <label htmlFor="profile-current-password">Current Password</label>
            <input
              id="profile-current-password"
              type="password"
              required
              autoComplete="current-password"
              aria-describedby="profile-current-hint"
              value={currentPassword}
              onChange={(e) => setCurrentPassword(e.target.value)}
            />
            <p id="profile-current-hint" className={formStyles['hint']}>
              Needed to change your email or password.
            </p>
          </div>
        )}
        <button type="submit" className={formStyles['submit']} disabled={submitting}>
          Update
        </button>
      </form>
    </section>
  );
}
