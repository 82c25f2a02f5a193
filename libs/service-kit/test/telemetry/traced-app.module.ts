import { Body, Controller, type DynamicModule, Get, Inject, Module, Post } from '@nestjs/common';
import { type ClientProxy, MessagePattern, Payload } from '@nestjs/microservices';
import { InjectModel } from '@nestjs/mongoose';
import { IsString } from 'class-validator';
import { type Model, Types } from 'mongoose';
import { newEvent } from '../../src/events/new-event';
import { requestReply } from '../../src/nats/request-reply';
import { OutboxRelayProvider } from '../../src/outbox/outbox-relay.provider';
import { outboxPush } from '../../src/outbox/outbox.schema';
import { SERVICE_CONTEXT, type ServiceContext } from '../../src/service-context';
import { shopCounter } from '../../src/telemetry/shop-metrics';
import { THINGS_CLIENT, type Thing, thingsApp } from '../test-app.module';

export const THING_MADE = 'test.thing.made';

class MakeThingDto {
  @IsString()
  name!: string;
}

/**
 * A request that does what a checkout does: a NATS command whose responder writes to the database,
 * then a change with its event in the outbox, published later by the relay.
 */
@Controller('api/traced')
class TracedController {
  private readonly made = shopCounter('shop.things.made', 'Things made through the traced route');

  constructor(
    @InjectModel('Thing') private readonly things: Model<Thing>,
    @Inject(THINGS_CLIENT) private readonly client: ClientProxy,
    private readonly relay: OutboxRelayProvider,
    @Inject(SERVICE_CONTEXT) private readonly context: ServiceContext,
  ) {}

  @Post()
  async make(@Body() body: MakeThingDto): Promise<{ id: string }> {
    const { id } = await requestReply<{ id: string }>(
      this.client,
      'things.store',
      { name: body.name },
      2_000,
    );
    const _id = new Types.ObjectId(id);
    await this.things.updateOne({ _id }, { $inc: { count: 1 }, ...outboxPush(newEvent(THING_MADE, { id })) });
    this.relay.nudge(_id);
    this.made.add(1, { kind: 'traced' });
    this.context.logger.info({ id }, 'thing made');
    return { id };
  }

  /** A read with no body: nothing but the request itself carries its context to the handler. */
  @Get()
  async count(): Promise<{ things: number }> {
    const things = await this.things.countDocuments();
    this.context.logger.info({ things }, 'things counted');
    return { things };
  }

  /** A fault of the service's own: the kit's filter answers 500. */
  @Get('broken')
  broken(): never {
    throw new Error('broken on purpose');
  }

  @MessagePattern('things.store')
  async store(@Payload() data: { name: string }): Promise<{ id: string }> {
    const thing = await this.things.create({ name: data.name, count: 0 });
    return { id: thing._id.toHexString() };
  }
}

@Module({})
export class TracedAppModule {
  static register(context: ServiceContext): DynamicModule {
    return thingsApp(TracedAppModule, context, {
      controllers: [TracedController],
      providers: [OutboxRelayProvider.forModels('Thing')],
    });
  }
}
