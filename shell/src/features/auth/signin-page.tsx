import { USERS_API } from '@shop/contracts';
import { apiFetch, userInfoAtom, type UserInfo } from '@shop/state';
import { useAction } from '@shop/ui';
import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useRedirectWhenSignedIn } from './use-redirect-when-signed-in';
import { FormPage } from '../../shared/form-page';
import { EmailField, TextField } from '../../shared/text-field';

/**
 * Sign In (docs/product/screens.md, "Sign In and Sign Up"): email and password; signed-in users go
 * straight to ?redirect= (default /).
 */
export function SignInPage() {
  const redirect = useRedirectWhenSignedIn();
  const setUserInfo = useSetAtom(userInfoAtom);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy: submitting, run: submit } = useAction();

  const onSubmit = async () => {
    await submit(async () => {
      setUserInfo(
        await apiFetch<UserInfo>(`${USERS_API}/signin`, { method: 'POST', body: { email, password } }),
      );
    });
  };

  return (
    <FormPage
      title="Sign In"
      submitLabel="Sign In"
      submitting={submitting}
      onSubmit={onSubmit}
      links={
        <>
          <Link to="/forgot-password">Forgot Password?</Link>
          <span>
            New customer?{' '}
            <Link to={`/signup?redirect=${encodeURIComponent(redirect)}`}>Create your account</Link>
          </span>
        </>
      }
    >
      <EmailField value={email} onChange={setEmail} />
      <TextField
        label="Password"
        type="password"
        required
        autoComplete="current-password"
        value={password}
        onChange={setPassword}
      />
    </FormPage>
  );
}
