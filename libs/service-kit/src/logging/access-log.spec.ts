import { Writable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { AccessLogController, type AccessLogOptions, loggerOptions } from './logger';

/** The access line (message and level) a request gets, or undefined for none. */
function lineFor(
  options: AccessLogOptions,
  answer: { statusCode: number; elapsedTime: number; error?: Error },
): { msg: string; level: string } | undefined {
  const lines: { msg: string; level: string }[] = [];
  const capture = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()) as { msg: string; level: string });
      done();
    },
  });
  const log = pino({ ...loggerOptions('things', 'info') }, capture);
  const request = { method: 'GET', url: '/api/things' } as FastifyRequest;
  const reply = {
    log,
    statusCode: answer.statusCode,
    elapsedTime: answer.elapsedTime,
  } as unknown as FastifyReply;
  new AccessLogController(options).requestCompleted(answer.error, request, reply);
  expect(lines.length).toBeLessThanOrEqual(1);
  return lines[0] && { msg: lines[0].msg, level: lines[0].level };
}

const problems = { every: false, slowMs: 500 };

describe('a service access line', () => {
  it('is not written for a request that went well and fast', () => {
    expect(lineFor(problems, { statusCode: 200, elapsedTime: 3 })).toBeUndefined();
    expect(lineFor(problems, { statusCode: 304, elapsedTime: 499.9 })).toBeUndefined();
  });

  it('is written for a refusal, a failure and a slow answer, at their levels', () => {
    expect(lineFor(problems, { statusCode: 404, elapsedTime: 2 })).toEqual({
      msg: 'request refused',
      level: 'info',
    });
    expect(lineFor(problems, { statusCode: 503, elapsedTime: 2 })).toEqual({
      msg: 'request failed',
      level: 'error',
    });
    expect(lineFor(problems, { statusCode: 200, elapsedTime: 2, error: new Error('socket') })).toEqual({
      msg: 'request failed',
      level: 'error',
    });
    expect(lineFor(problems, { statusCode: 201, elapsedTime: 500 })).toEqual({
      msg: 'request slow',
      level: 'warn',
    });
  });

  it('is written for every request when asked (ACCESS_LOG=all)', () => {
    expect(lineFor({ every: true, slowMs: 500 }, { statusCode: 200, elapsedTime: 3 })).toEqual({
      msg: 'request completed',
      level: 'info',
    });
  });
});
