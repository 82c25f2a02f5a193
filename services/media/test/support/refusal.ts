import { HttpException } from '@nestjs/common';

/** The status and message of the HttpException a check rejects with; fails when the check passes. */
export async function refusalOf(check: Promise<unknown>): Promise<{ status: number; message: string }> {
  try {
    await check;
  } catch (error) {
    if (error instanceof HttpException) return { status: error.getStatus(), message: error.message };
    throw error;
  }
  throw new Error('the image was accepted');
}
