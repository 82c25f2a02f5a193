import { describe, expect, it } from 'vitest';
import { redactCredentials } from './infrastructure.js';

describe('redactCredentials', () => {
  it('hides the password of every server of a comma-separated list', () => {
    expect(redactCredentials('nats://shop:secret@127.0.0.1:4222,nats://127.0.0.1:4223')).toBe(
      'nats://shop:***@127.0.0.1:4222,nats://127.0.0.1:4223',
    );
    expect(redactCredentials('mongodb://root:hunter2@db:27017/')).toBe('mongodb://root:***@db:27017/');
  });
});
