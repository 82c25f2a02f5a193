import { HttpException } from '@nestjs/common';

/** The status and message of the HttpException a check or a command rejects with; fails when it passes. */
export async function refusalOf(check: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await check;
  } catch (error) {
    if (error instanceof HttpException) return { status: error.getStatus(), message: error.message };
    throw error;
  }
  throw new Error('it was not refused');
}
