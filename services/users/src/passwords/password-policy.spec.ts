import { describe, expect, it } from 'vitest';
import { isCommonPassword, passwordProblem } from './password-policy';

describe('password policy', () => {
  it('accepts a long, uncommon password', () => {
    expect(passwordProblem('tangerine-otter-42')).toBeUndefined();
  });

  it('refuses passwords shorter than 8 characters, counting characters not bytes', () => {
    expect(passwordProblem('abc1234')).toBe('password must be at least 8 characters');
    expect(passwordProblem('ééééééé')).toBe('password must be at least 8 characters');
    expect(passwordProblem('éé-ok-yes-9')).toBeUndefined();
  });

  it('refuses the most common passwords whatever their case', () => {
    expect(isCommonPassword('password1')).toBe(true);
    expect(isCommonPassword('PassWord1')).toBe(true);
    expect(passwordProblem('12345678')).toBe('password is too common, please choose another');
    expect(passwordProblem('iloveyou123')).toBe('password is too common, please choose another');
  });

  it('refuses absurdly long passwords', () => {
    expect(passwordProblem('x'.repeat(257))).toMatch(/at most 256/);
  });
});
