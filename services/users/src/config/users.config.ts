import { join } from 'node:path';
import { authConfigShape, baseServiceConfigSchema } from '@shop/service-kit';
import { z } from 'zod';
import { passwordProblem } from '../passwords/password-policy';

/** Local-run defaults of the seeded admin (README, "Accounts and keys"); production must set its own. */
export const LOCAL_ADMIN_EMAIL = 'admin@shop.local';
export const LOCAL_ADMIN_PASSWORD = 'admin-password-123';

const durationUnits = { s: 1, m: 60, h: 3_600, d: 86_400 } as const;

/** `90s`, `15m`, `12h`, `7d` or a number of seconds, as whole seconds. */
const durationSeconds = z
  .string()
  .regex(/^\d+\s*[smhd]?$/, 'must be a duration such as 900s, 15m, 12h or 1d')
  .transform((value) => {
    const unit = value.at(-1) as string;
    const amount = Number.parseInt(value, 10);
    return unit in durationUnits ? amount * durationUnits[unit as keyof typeof durationUnits] : amount;
  })
  .refine((seconds) => seconds >= 60 && seconds <= 30 * 86_400, 'must be between 1 minute and 30 days');

const limit = (fallback: number) => z.coerce.number().int().min(1).max(100_000).default(fallback);

export const usersConfigSchema = baseServiceConfigSchema
  .extend({
    PORT: z.coerce.number().int().min(0).max(65535).default(3003),
    /** Every body this service takes is a few small fields. */
    BODY_LIMIT_BYTES: z.coerce.number().int().min(1_024).default(16_384),
    ...authConfigShape,
    /** The signing key, PEM (PKCS8, Ed25519); only this service holds it. */
    JWT_PRIVATE_KEY: z.string().min(1).optional(),
    JWT_PRIVATE_KEY_FILE: z.string().min(1).optional(),
    /** Outside production, where a key pair is generated on first start when none is configured. */
    JWT_KEYS_DIR: z
      .string()
      .min(1)
      .default(join(process.cwd(), '.data', 'keys')),
    /** How long a token is valid. */
    JWT_TTL: durationSeconds.default(12 * 3_600),
    ADMIN_EMAIL: z.email().max(254).optional(),
    ADMIN_PASSWORD: z.string().optional(),
    ADMIN_NAME: z.string().trim().min(1).max(100).default('Admin'),
    /** Without SMTP_URL, each message is written as one .eml file here. */
    MAIL_OUTBOX_DIR: z
      .string()
      .min(1)
      .default(join(process.cwd(), '.data', 'outbox')),
    /** `smtp://user:pass@host:587` or `smtps://...`: send e-mail through this server. */
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\/.+/, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).default('Shop <no-reply@shop.local>'),
    /** Fixed window of the attempt counters. */
    THROTTLE_WINDOW: durationSeconds.default(15 * 60),
    /** Failed sign-ins per account and per client address in one window. */
    THROTTLE_SIGNIN_PER_ACCOUNT: limit(10),
    THROTTLE_SIGNIN_PER_ADDRESS: limit(50),
    /** Sign-ups per e-mail address and per client address. */
    THROTTLE_SIGNUP_PER_ACCOUNT: limit(5),
    THROTTLE_SIGNUP_PER_ADDRESS: limit(20),
    /** Reset codes asked for per account and per client address (each sends an e-mail). */
    THROTTLE_FORGOT_PER_ACCOUNT: limit(3),
    THROTTLE_FORGOT_PER_ADDRESS: limit(10),
    /** Reset attempts per account and per client address (each code also dies after 5 wrong tries). */
    THROTTLE_RESET_PER_ACCOUNT: limit(10),
    THROTTLE_RESET_PER_ADDRESS: limit(30),
  })
  .superRefine((config, ctx) => {
    const production = config.NODE_ENV === 'production';
    if (production && !config.JWT_PRIVATE_KEY && !config.JWT_PRIVATE_KEY_FILE) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_PRIVATE_KEY'],
        message: 'required in production (or JWT_PRIVATE_KEY_FILE): the Ed25519 signing key, PEM',
      });
    }
    if (production && !config.JWT_PUBLIC_KEY && !config.JWT_PUBLIC_KEY_FILE) {
      ctx.addIssue({
        code: 'custom',
        path: ['JWT_PUBLIC_KEY'],
        message: 'required in production (or JWT_PUBLIC_KEY_FILE): the Ed25519 public key, PEM',
      });
    }
    if (production && !config.ADMIN_EMAIL) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_EMAIL'], message: 'required in production' });
    }
    if (production && !config.ADMIN_PASSWORD) {
      ctx.addIssue({ code: 'custom', path: ['ADMIN_PASSWORD'], message: 'required in production' });
    } else if (config.ADMIN_PASSWORD !== undefined) {
      const problem = passwordProblem(config.ADMIN_PASSWORD);
      // An empty path keeps loadConfig from printing the password in its error.
      if (problem) ctx.addIssue({ code: 'custom', path: [], message: `ADMIN_PASSWORD: ${problem}` });
    }
  })
  .transform((config) => ({
    ...config,
    ADMIN_EMAIL: (config.ADMIN_EMAIL ?? LOCAL_ADMIN_EMAIL).toLowerCase(),
    ADMIN_PASSWORD: config.ADMIN_PASSWORD ?? LOCAL_ADMIN_PASSWORD,
  }));

export type UsersConfig = z.infer<typeof usersConfigSchema>;
