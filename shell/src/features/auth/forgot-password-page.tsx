import { USERS_API } from '@shop/contracts';
import { apiFetch, ApiError } from '@shop/state';
import { errorMessage, useAction } from '@shop/ui';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { rememberResetEmail } from './reset-email';
import { FormPage } from '../../shared/form-page';
import { EmailField } from '../../shared/text-field';

/**
 * What the forgot-password step says when the code is on its way, and when the address is refused
 * (docs/product/messages.md, "Shopper toasts").
 */
const FORGOT_PASSWORD_MESSAGES = {
  sent: 'Password reset link has been sent to your email!',
  invalidEmail: 'Password reset failed, invalid email address',
} as const;

/**
 * Forgot password (docs/product/screens.md, "Forgot and reset password"): asks for the e-mail, has a code
 * sent, moves on to /reset-password. The server answers alike for known and unknown addresses, so this screen
 * never tells whether an account exists.
 */
export function ForgotPasswordPage() {
  const navigate = useNavigate();
  const [email, setEmail] = useState('');
  const { busy: submitting, run: submit } = useAction();

  const onSubmit = async () => {
    await submit(
      async () => {
        await apiFetch(`${USERS_API}/forgot-password`, { method: 'POST', body: { email } });
        rememberResetEmail(email);
        toast.success(FORGOT_PASSWORD_MESSAGES.sent);
        navigate('/reset-password', { state: { email } });
      },
      {
        // A 400 is the address itself refused; anything else (too many requests, no answer) says what it is.
        failureMessage: (error) =>
          error instanceof ApiError && error.status === 400
            ? FORGOT_PASSWORD_MESSAGES.invalidEmail
            : errorMessage(error),
      },
    );
  };

  return (
    <FormPage
      title="Forgot Password"
      submitLabel="Request password reset"
      submitting={submitting}
      onSubmit={onSubmit}
      links={
        <>
          <Link to="/signin">Back to Sign In</Link>
        </>
      }
    >
      <EmailField value={email} onChange={setEmail} />
    </FormPage>
  );
}
