import type { InputHTMLAttributes, ReactNode } from 'react';
import shared from './admin.module.css';

export interface FieldProps {
  /** The id of the control inside: the label names it, and the hint is `${id}-hint`. */
  id: string;
  label: string;
  /** Under the control; give the control `aria-describedby={`${id}-hint`}`. */
  hint?: ReactNode;
  /** The control, and anything that goes with it (a datalist). */
  children: ReactNode;
}

/** One labelled field of an admin form, with its hint under it. */
export function Field({ id, label, hint, children }: FieldProps) {
  return (
    <div className={shared['field']}>
      <label htmlFor={id} className={shared['label']}>
        {label}
      </label>
      {children}
      {hint !== undefined && (
        <p id={`${id}-hint`} className={shared['hint']}>
          {hint}
        </p>
      )}
    </div>
  );
}

export interface InputFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'id' | 'className' | 'value' | 'onChange'
> {
  id: string;
  label: string;
  /** Under the input, which it describes. */
  hint?: ReactNode;
  value: string;
  onChange: (value: string) => void;
}

/** A Field whose control is one input of the admin look, described by the hint when there is one. */
export function InputField({ id, label, hint, value, onChange, ...input }: InputFieldProps) {
  return (
    <Field id={id} label={label} hint={hint}>
      <input
        id={id}
        className={shared['input']}
        {...input}
        aria-describedby={hint === undefined ? undefined : `${id}-hint`}
        value={value}
        onChange={(event) => onChange(event.target.value)}
      />
    </Field>
  );
}
