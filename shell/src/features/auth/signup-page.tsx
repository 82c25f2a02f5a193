import { type UserInfo, USERS_API } from '@shop/contracts';
import { apiFetch, userInfoAtom } from '@shop/state';
import { Button } from '@shop/ui';
import { useSetAtom } from 'jotai';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { toast } from 'react-toastify';
import styles from '../../shared/form.module.css';
import { PASSWORDS_DO_NOT_MATCH } from '../../shared/passwords';
import { useRedirectWhenSignedIn } from './use-redirect-when-signed-in';
import { TextField } from '../../shared/text-field';
import { useSubmission } from '../../shared/use-submission';

/** Sign Up (spec §2): name, e-mail, password twice; signed-in users go straight to ?redirect= (default /). */
export function SignUpPage() {
  const redirect = useRedirectWhenSignedIn();
  const setUserInfo = useSetAtom(userInfoAtom);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [confirmPassword, setConfirmPassword] = useState('');
  const { submitting, submit } = useSubmission();

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (password !== confirmPassword) {
      toast.error(PASSWORDS_DO_NOT_MATCH);
      return;
    }
    await submit(async () => {
      setUserInfo(
        await apiFetch<UserInfo>(`${USERS_API}/signup`, { method: 'POST', body: { name, email, password } }),
      );
    });
  };

  return (
    <section className={styles['page']}>
      <title>Sign Up</title>
      <h1>Sign Up</h1>
      <form className={styles['form']} onSubmit={onSubmit}>
        <TextField label="Name" required autoComplete="name" value={name} onChange={setName} />
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
          minLength={8}
          autoComplete="new-password"
          value={password}
          onChange={setPassword}
        />
        <TextField
          label="Confirm Password"
          type="password"
          required
          autoComplete="new-password"
          value={confirmPassword}
          onChange={setConfirmPassword}
        />
        <Button type="submit" className={styles['submit']} disabled={submitting}>
          Sign Up
        </Button>
      </form>
      <p className={styles['links']}>
        <span>
          Already have an account?{' '}
          <Link to={`/signin?redirect=${encodeURIComponent(redirect)}`}>Sign In</Link>
        </span>
      </p>
    </section>
  );
}
