import { applyDecorators } from '@nestjs/common';

/**
 * One property decorator made of several, applied as TypeScript applies them written one above the
 * other: the last first. Validators run, and the OpenAPI schemas derived from them list their rules,
 * in the order they were applied, so a field rule written with it reports its failures and documents
 * itself as the stack it stands for.
 */
export function DecoratorStack(...decorators: PropertyDecorator[]): PropertyDecorator {
  return applyDecorators(...[...decorators].reverse());
}
