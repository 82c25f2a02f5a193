import { type UserInfo, USERS_API } from '@shop/contracts';
import { apiFetch, userInfoAtom } from '@shop/state';
import { useAction } from '@shop/ui';
import { useAtom } from 'jotai';
import { useState } from 'react';
import { toast } from 'react-toastify';
import { useNewPassword } from '../../shared/passwords';
import { AdminFeaturesMenu } from './admin-features-menu';
import styles from './profile-page.module.css';
import { FormPage } from '../../shared/form-page';
import { EmailField, NewPasswordFields, TextField } from '../../shared/text-field';

const PROFILE_UPDATED = 'User updated successfully';

/** Body of `PUT api/users/profile`: an empty password keeps the current one. */
interface UpdateProfileRequest {
  name: string;
  email: string;
  password: string;
  currentPassword?: string;
}

/**
 * User Profile (docs/product/screens.md, "User Profile"): name, e-mail, new password twice; the current
 * password is asked for when the e-mail or the password changes. The answer's fresh token replaces the stored
 * one (a new password ends every other session). Admins also get the 'ADMIN FEATURES' menu.
 */
export function ProfilePage() {
  const [userInfo, setUserInfo] = useAtom(userInfoAtom);
  const [name, setName] = useState(userInfo?.name ?? '');
  const [email, setEmail] = useState(userInfo?.email ?? '');
  const newPassword = useNewPassword();
  const { password } = newPassword.fields;
  const [currentPassword, setCurrentPassword] = useState('');
  const { busy: submitting, run: submit } = useAction();

  // The guard keeps signed-out visitors away; this is only for the moment a sign-out happens here.
  if (!userInfo) return null;
  const needsCurrentPassword = password !== '' || email.trim().toLowerCase() !== userInfo.email;

  const onSubmit = async () => {
    if (newPassword.differ()) return;
    await submit(async () => {
      const body: UpdateProfileRequest = {
        name,
        email,
        password,
        ...(needsCurrentPassword ? { currentPassword } : {}),
      };
      const updated = await apiFetch<UserInfo>(`${USERS_API}/profile`, { method: 'PUT', body });
      setUserInfo(updated);
      newPassword.clear();
      setCurrentPassword('');
      toast.success(PROFILE_UPDATED);
    });
  };

  return (
    <FormPage
      title="User Profile"
      heading={
        <div className={styles['header']}>
          <h1>User Profile</h1>
          {userInfo.isAdmin && <AdminFeaturesMenu />}
        </div>
      }
      submitLabel="Update"
      submitting={submitting}
      onSubmit={onSubmit}
    >
      <TextField label="Name" required autoComplete="name" value={name} onChange={setName} />
      <EmailField value={email} onChange={setEmail} />
      <NewPasswordFields
        {...newPassword.fields}
        required={false}
        hint="Leave empty to keep your current password."
      />
      {needsCurrentPassword && (
        <TextField
          label="Current Password"
          type="password"
          required
          autoComplete="current-password"
          value={currentPassword}
          onChange={setCurrentPassword}
          hint="Needed to change your email or password."
        />
      )}
    </FormPage>
  );
}
