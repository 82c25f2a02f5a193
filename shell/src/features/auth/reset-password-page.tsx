import { PASSWORD_RECOVERY_MESSAGES, type ResetPasswordRequest, USERS_API } from '@shop/contracts';
import { apiFetch, ApiError } from '@shop/state';
import { errorMessage, useAction } from '@shop/ui';
import { useState } from 'react';
import { Link, useLocation, useNavigate } from 'react-router-dom';
import { toast } from 'react-toastify';
import { useNewPassword } from '../../shared/passwords';
import { forgetResetEmail, recalledResetEmail } from './reset-email';
import { FormPage } from '../../shared/form-page';
import { EmailField, NewPasswordFields, TextField } from '../../shared/text-field';

/** The reset step's toasts (docs/product/messages.md, "Shopper toasts"). */
const RESET_PASSWORD_MESSAGES = {
  done: 'Password reset successfully',
  invalidCode: 'Password reset failed, invalid OTP',
} as const;

/**
 * Reset password (docs/product/screens.md, "Forgot and reset password"): the code from the e-mail and the
 * new password twice, for the address of the forgot step (asked for here when the page was opened
 * directly); success goes to /signin.
 */
export function ResetPasswordPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const [knownEmail] = useState(() => recalledResetEmail(location.state));
  const [email, setEmail] = useState(knownEmail);
  const [otp, setOtp] = useState('');
  const newPassword = useNewPassword();
  const { busy: submitting, run: submit } = useAction();

  const onSubmit = async () => {
    if (newPassword.differ()) return;
    await submit(
      async () => {
        const body: ResetPasswordRequest = {
          email,
          otp: otp.trim(),
          newPassword: newPassword.fields.password,
        };
        await apiFetch(`${USERS_API}/reset-password`, { method: 'POST', body });
        forgetResetEmail();
        toast.success(RESET_PASSWORD_MESSAGES.done);
        navigate('/signin', { replace: true });
      },
      {
        failureMessage: (error) => {
          const refusedCode =
            error instanceof ApiError && error.message === PASSWORD_RECOVERY_MESSAGES.invalidCode;
          return refusedCode ? RESET_PASSWORD_MESSAGES.invalidCode : errorMessage(error);
        },
      },
    );
  };

  return (
    <FormPage
      title="Reset Password"
      intro={knownEmail && <p>Enter the code we sent to {knownEmail}.</p>}
      submitLabel="Reset Password"
      submitting={submitting}
      onSubmit={onSubmit}
      links={
        <>
          <Link to="/forgot-password">Send a new code</Link>
          <Link to="/signin">Back to Sign In</Link>
        </>
      }
    >
      {!knownEmail && <EmailField value={email} onChange={setEmail} />}
      <TextField
        label="OTP"
        required
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="\s*[0-9]{6}\s*"
        title="The 6-digit code from the e-mail"
        value={otp}
        onChange={setOtp}
      />
      <NewPasswordFields label="New Password" {...newPassword.fields} />
    </FormPage>
  );
}
