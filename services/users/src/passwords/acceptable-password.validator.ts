import { registerDecorator, type ValidationOptions } from 'class-validator';
import { passwordProblem } from './password-policy';

/** class-validator rule: a string that passes the password policy (length, not a common password). */
export function IsAcceptablePassword(options?: ValidationOptions): PropertyDecorator {
  return (target, propertyName) => {
    registerDecorator({
      name: 'isAcceptablePassword',
      target: target.constructor,
      propertyName: String(propertyName),
      options,
      validator: {
        validate: (value: unknown) => typeof value === 'string' && passwordProblem(value) === undefined,
        defaultMessage: (args) =>
          typeof args?.value === 'string'
            ? (passwordProblem(args.value) ?? 'password is not acceptable')
            : `${args?.property ?? 'password'} must be a string`,
      },
    });
  };
}
