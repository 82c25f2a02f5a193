import { USERS_API } from '@shop/contracts';
import { apiFetch, userInfoAtom, type UserInfo } from '@shop/state';
import { Button } from '@shop/ui';
import { useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import styles from '../../shared/form.module.css';
import { useRedirectWhenSignedIn } from './use-redirect-when-signed-in';
import { TextField } from '../../shared/text-field';
import { useSubmission } from '../../shared/use-submission';

/** Sign In (spec §2): email and password; signed-in users go straight to ?redirect= (default /). */
export function SignInPage() {
  const redirect = useRedirectWhenSignedIn();
  const setUserInfo = useSetAtom(userInfoAtom);
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { submitting, submit } = useSubmission();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    await submit(async () => {
      setUserInfo(
        await apiFetch<UserInfo>(`${USERS_API}/signin`, { method: 'POST', body: { email, password } }),
      );
    });
  };

  return (
    <section className={styles['page']}>
      <title>Sign In</title>
      <h1>Sign In</h1>
      <form className={styles['form']} onSubmit={onSubmit}>
        <TextField
          label="Email"
          type="email"
          required
          autoComplete="email"
          value={email}
          onChange={setEmail}
        />
        <TextField
          label="Password"
          type="password"
          required
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
        />
        <Button type="submit" className={styles['submit']} disabled={submitting}>
          Sign In
        </Button>
      </form>
      <p className={styles['links']}>
        <Link to="/forgot-password">Forgot Password?</Link>
        <span>
          New customer?{' '}
          <Link to={`/signup?redirect=${encodeURIComponent(redirect)}`}>Create your account</Link>
        </span>
      </p>
    </section>
  );
}
