import { useId, type InputHTMLAttributes } from 'react';
import styles from './form.module.css';

export interface TextFieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'onChange' | 'value'> {
  label: string;
  value: string;
  onChange: (value: string) => void;
  /** Read out with the field (what to type, what happens when it is left empty). */
  hint?: string;
}

/** A labelled input of the shell's forms; the hint, when there is one, is the field's description. */
export function TextField({ label, value, onChange, hint, ...input }: TextFieldProps) {
  const id = useId();
  return (
    <div className={styles['field']}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        value={value}
        onChange={(event) => onChange(event.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className={styles['hint']}>
          {hint}
        </p>
      )}
    </div>
  );
}

/** The e-mail field of the shell's forms. */
export function EmailField({ value, onChange }: Pick<TextFieldProps, 'value' | 'onChange'>) {
  return (
    <TextField label="Email" type="email" required autoComplete="email" value={value} onChange={onChange} />
  );
}

export interface NewPasswordFieldsProps {
  /** 'Password' or 'New Password'; the second field is 'Confirm …' of it. */
  label?: string;
  password: string;
  confirmation: string;
  onPassword: (value: string) => void;
  onConfirmation: (value: string) => void;
  /** False where an empty password keeps the current one (the profile). */
  required?: boolean;
  hint?: string;
}

/** A new password (8 characters at least) and its confirmation, as sign-up, reset and profile ask for them. */
export function NewPasswordFields({
  label = 'Password',
  password,
  confirmation,
  onPassword,
  onConfirmation,
  required = true,
  hint,
}: NewPasswordFieldsProps) {
  return (
    <>
      <TextField
        label={label}
        type="password"
        required={required}
        minLength={8}
        autoComplete="new-password"
        value={password}
        onChange={onPassword}
        hint={hint}
      />
      <TextField
        label={`Confirm ${label}`}
        type="password"
        required={required}
        autoComplete="new-password"
        value={confirmation}
        onChange={onConfirmation}
      />
    </>
  );
}
