import { PASSWORD_RECOVERY_MESSAGES } from '@shop/contracts';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ForgotPasswordPage } from '../forgot-password-page';
import { ResetPasswordPage } from '../reset-password-page';
import { renderScreen, stubApi } from '@shop/ui/testing';

describe('Forgot Password screen', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  it('asks for a code and moves on to the reset step, keeping the address', async () => {
    const { calls } = stubApi({
      '/api/users/forgot-password': { status: 200, body: { message: PASSWORD_RECOVERY_MESSAGES.codeSent } },
    });
    renderScreen(<ForgotPasswordPage />, { path: '/forgot-password' });
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com');
    await userEvent.click(screen.getByRole('button', { name: 'Request password reset' }));

    expect(await screen.findByText('Password reset link has been sent to your email!')).toBeInTheDocument();
    // The router moves on in a transition, which a busy machine may commit after the toast is drawn.
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/reset-password'));
    expect(calls[0]).toMatchObject({ method: 'POST', body: { email: 'ann@example.com' } });
    expect(sessionStorage.getItem('passwordResetEmail')).toBe('ann@example.com');
  });

  it('says the address was refused when the server finds it invalid', async () => {
    stubApi({ '/api/users/forgot-password': { status: 400, body: { message: 'email must be an email' } } });
    renderScreen(<ForgotPasswordPage />, { path: '/forgot-password' });
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example');
    await userEvent.click(screen.getByRole('button', { name: 'Request password reset' }));
    expect(await screen.findByText('Password reset failed, invalid email address')).toBeInTheDocument();
  });

  it('links back to sign in', () => {
    stubApi({});
    renderScreen(<ForgotPasswordPage />, { path: '/forgot-password' });
    expect(screen.getByRole('link', { name: 'Back to Sign In' })).toHaveAttribute('href', '/signin');
  });
});

describe('Reset Password screen', () => {
  beforeEach(() => sessionStorage.clear());
  afterEach(() => vi.unstubAllGlobals());

  async function submit(otp: string, password: string, confirm = password) {
    await userEvent.type(screen.getByLabelText('OTP'), otp);
    await userEvent.type(screen.getByLabelText('New Password'), password);
    await userEvent.type(screen.getByLabelText('Confirm New Password'), confirm);
    await userEvent.click(screen.getByRole('button', { name: 'Reset Password' }));
  }

  it('sends the address of the first step with the code and the new password, then goes to sign in', async () => {
    sessionStorage.setItem('passwordResetEmail', 'ann@example.com');
    const { calls } = stubApi({
      '/api/users/reset-password': {
        status: 200,
        body: { message: PASSWORD_RECOVERY_MESSAGES.passwordReset },
      },
    });
    renderScreen(<ResetPasswordPage />, { path: '/reset-password' });
    expect(screen.queryByLabelText('Email')).not.toBeInTheDocument();

    await submit('123456', 'new-correct-horse');

    expect(await screen.findByText('Password reset successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/signin'));
    expect(calls[0]?.body).toEqual({
      email: 'ann@example.com',
      otp: '123456',
      newPassword: 'new-correct-horse',
    });
    expect(sessionStorage.getItem('passwordResetEmail')).toBeNull();
  });

  it('asks for the address when opened directly', async () => {
    const { calls } = stubApi({ '/api/users/reset-password': { status: 200, body: { message: 'ok' } } });
    renderScreen(<ResetPasswordPage />, { path: '/reset-password' });
    await userEvent.type(screen.getByLabelText('Email'), 'bob@example.com');
    await submit('654321', 'new-correct-horse');
    expect(await screen.findByTestId('location')).toHaveTextContent('/signin');
    expect(calls[0]?.body).toMatchObject({ email: 'bob@example.com', otp: '654321' });
  });

  it("shows the spec's message for a refused code and the server's for anything else", async () => {
    sessionStorage.setItem('passwordResetEmail', 'ann@example.com');
    stubApi({
      '/api/users/reset-password': { status: 400, body: { message: PASSWORD_RECOVERY_MESSAGES.invalidCode } },
    });
    renderScreen(<ResetPasswordPage />, { path: '/reset-password' });
    await submit('000000', 'new-correct-horse');
    expect(await screen.findByText('Password reset failed, invalid OTP')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Reset Password' })).toBeInTheDocument();
  });

  it('refuses two different new passwords without calling the server', async () => {
    sessionStorage.setItem('passwordResetEmail', 'ann@example.com');
    const { calls } = stubApi({});
    renderScreen(<ResetPasswordPage />, { path: '/reset-password' });
    await submit('123456', 'new-correct-horse', 'new-correct-horsf');
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument();
    expect(calls).toEqual([]);
  });
});
