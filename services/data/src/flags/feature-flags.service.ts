import {
  BadRequestException,
  ConflictException,
  Inject,
  Injectable,
  NotFoundException,
  type OnApplicationBootstrap,
  type OnModuleDestroy,
} from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import { FAULT_FLAGS, type FaultFlagKey, type FeatureFlag } from '@shop/contracts';
import {
  type AuthenticatedUser,
  OutboxRelayProvider,
  PassLoop,
  SERVICE_CONTEXT,
  type ServiceContext,
  adminActionEvent,
  isDuplicateKey,
} from '@shop/service-kit';
import type { Model } from 'mongoose';
import type { DataConfig } from '../config/data.config';
import { FEATURE_FLAG_STATE_MODEL, type FeatureFlagStateRecord } from './feature-flag-state.schema';
import { type FlagSet, shopFlagSet } from './flag-definitions';

type Listener = (flagConfiguration: string) => void;

/**
 * The fault flags: their definitions (shop.flagd.json) with the variant each is switched to, kept in the
 * data service's database. Every service's flagd provider syncs the resulting flag set from this service
 * (`FlagSyncServer`); a switch reaches them at once from the replica that made it, and from the others at
 * their next look at the database (`FLAGS_POLL_MS`).
 */
@Injectable()
export class FeatureFlagsService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly definitions: FlagSet = shopFlagSet();
  private readonly listeners = new Set<Listener>();
  private states = new Map<string, FeatureFlagStateRecord>();
  private current: string;
  private readonly loop: PassLoop;
  private markLoaded!: () => void;
  /** Settles once the switches stored have been read: before that the flag set is the definitions' defaults. */
  readonly loaded = new Promise<void>((resolve) => (this.markLoaded = resolve));

  constructor(
    @InjectModel(FEATURE_FLAG_STATE_MODEL) private readonly model: Model<FeatureFlagStateRecord>,
    private readonly relay: OutboxRelayProvider,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext<DataConfig>,
  ) {
    this.current = this.flagConfigurationNow();
    this.loop = new PassLoop({
      intervalMs: context.config.FLAGS_POLL_MS,
      pass: () => this.reload(),
      onError: (error) =>
        this.context.logger.warn({ err: error }, 'could not read the feature flags, will retry'),
    });
  }

  /** Stores each flag's default variant in an empty database (replicas starting together write it once). */
  async onApplicationBootstrap(): Promise<void> {
    for (const [key, flag] of Object.entries(this.definitions.flags)) {
      await this.model
        .updateOne({ _id: key }, { $setOnInsert: { variant: flag.defaultVariant } }, { upsert: true })
        .catch((error: unknown) => {
          if (!isDuplicateKey(error)) throw error;
        });
    }
    await this.reload();
    this.markLoaded();
    this.loop.start();
  }

  async onModuleDestroy(): Promise<void> {
    await this.loop.stop();
  }

  /** The flag set in flagd's JSON format, each flag's default variant being the one switched to. */
  flagConfiguration(): string {
    return this.current;
  }

  /** Calls `listener` with the flag set whenever it changes; answers the function that stops it. */
  onChange(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Every fault flag with its variants and the one chosen, in the order of `FAULT_FLAGS`. */
  list(): FeatureFlag[] {
    return Object.keys(this.definitions.flags).map((key) => this.view(key));
  }

  /** An admin switches a flag to one of its variants; the audit trail records it with the same write. */
  async switch(admin: AuthenticatedUser, key: string, variant: string): Promise<FeatureFlag> {
    // Own keys only: `constructor` or `__proto__` name no flag and no variant.
    const flag = Object.hasOwn(this.definitions.flags, key) ? this.definitions.flags[key] : undefined;
    if (!flag) throw new NotFoundException('Flag not found');
    if (!Object.hasOwn(flag.variants, variant)) {
      const names = Object.keys(flag.variants).join(', ');
      throw new BadRequestException(`variant must be one of ${names}`);
    }
    const stored = await this.model.findById(key).select('variant').lean<FeatureFlagStateRecord>();
    const was = stored?.variant ?? flag.defaultVariant;
    if (was === variant) return this.view(key);
    const audit = adminActionEvent({
      actor: admin,
      action: 'flag.switched',
      target: { type: 'flag', id: key, label: key },
      before: { variant: was },
      after: { variant },
    });
    const switched = await this.relay.updateWithEvent(
      this.model,
      // Only while it holds what was read: the audit trail's "before" is what this switch replaced.
      { _id: key, variant: was },
      { $set: { variant, switchedAt: new Date(), switchedBy: admin.id } },
      audit,
      { returnDocument: 'after', projection: 'variant switchedAt switchedBy' },
    );
    if (!switched) throw new ConflictException('The flag was switched meanwhile, please try again');
    this.context.logger.info(
      { flag: key, from: was, to: variant, adminId: admin.id },
      'feature flag switched',
    );
    this.loop.nudge();
    await this.reload();
    return this.view(key);
  }

  private view(key: string): FeatureFlag {
    const flag = this.definitions.flags[key]!;
    const state = this.states.get(key);
    return {
      key,
      description: flag.metadata.description,
      service: FAULT_FLAGS[key as FaultFlagKey].service,
      variants: Object.entries(flag.variants).map(([name, value]) => ({ name, value })),
      variant: this.chosenVariant(key),
      ...(state?.switchedAt && { switchedAt: new Date(state.switchedAt).toISOString() }),
      ...(state?.switchedBy && { switchedBy: state.switchedBy }),
    };
  }

  /** The stored variant, or the definition's default when none is stored or the stored one is gone. */
  private chosenVariant(key: string): string {
    const flag = this.definitions.flags[key]!;
    const stored = this.states.get(key)?.variant;
    return stored !== undefined && Object.hasOwn(flag.variants, stored) ? stored : flag.defaultVariant;
  }

  /** Reads the switches from the database and tells the listeners when the flag set changed. */
  private async reload(): Promise<void> {
    const records = await this.model
      .find()
      .select('variant switchedAt switchedBy')
      .lean<FeatureFlagStateRecord[]>();
    this.states = new Map(records.map((record) => [record._id, record]));
    const next = this.flagConfigurationNow();
    if (next === this.current) return;
    this.current = next;
    for (const listener of this.listeners) listener(next);
  }

  private flagConfigurationNow(): string {
    const flags = Object.fromEntries(
      Object.entries(this.definitions.flags).map(([key, flag]) => [
        key,
        { ...flag, defaultVariant: this.chosenVariant(key) },
      ]),
    );
    return JSON.stringify({ ...this.definitions, flags });
  }
}
