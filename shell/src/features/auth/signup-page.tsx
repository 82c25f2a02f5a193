import { type UserInfo, USERS_API } from '@shop/contracts';
import { apiFetch, userInfoAtom } from '@shop/state';
import { useAction } from '@shop/ui';
import { useSetAtom } from 'jotai';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { useNewPassword } from '../../shared/passwords';
import { useRedirectWhenSignedIn } from './use-redirect-when-signed-in';
import { FormPage } from '../../shared/form-page';
import { EmailField, NewPasswordFields, TextField } from '../../shared/text-field';

/**
 * Sign Up (docs/product/screens.md, "Sign In and Sign Up"): name, e-mail, password twice; signed-in users
 * go straight to ?redirect= (default /).
 */
export function SignUpPage() {
  const redirect = useRedirectWhenSignedIn();
  const setUserInfo = useSetAtom(userInfoAtom);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const newPassword = useNewPassword();
  const { busy: submitting, run: submit } = useAction();

  const onSubmit = async () => {
    if (newPassword.differ()) return;
    await submit(async () => {
      const body = { name, email, password: newPassword.fields.password };
      setUserInfo(await apiFetch<UserInfo>(`${USERS_API}/signup`, { method: 'POST', body }));
    });
  };

  return (
    <FormPage
      title="Sign Up"
      submitLabel="Sign Up"
      submitting={submitting}
      onSubmit={onSubmit}
      links={
        <>
          <span>
            Already have an account?{' '}
            <Link to={`/signin?redirect=${encodeURIComponent(redirect)}`}>Sign In</Link>
          </span>
        </>
      }
    >
      <TextField label="Name" required autoComplete="name" value={name} onChange={setName} />
      <EmailField value={email} onChange={setEmail} />
      <NewPasswordFields {...newPassword.fields} />
    </FormPage>
  );
}
