import {
  Body,
  Controller,
  type DynamicModule,
  Get,
  Inject,
  Module,
  Param,
  Post,
  type Provider,
  type Type,
} from '@nestjs/common';
import { type ClientProxy, MessagePattern, Payload } from '@nestjs/microservices';
import { InjectModel, MongooseModule } from '@nestjs/mongoose';
import { IsInt, IsString, Min } from 'class-validator';
import { type Model, Schema } from 'mongoose';
import { ServiceKitModule } from '../src/service-kit.module';
import type { ServiceContext } from '../src/service-context';
import { withOutbox } from '../src/outbox/outbox.schema';
import { TooManyRequestsException } from '../src/http/too-many-requests.exception';
import { natsClientProvider } from '../src/nats/nats-client.provider';
import { requestReply, rpcRefusal } from '../src/nats/request-reply';

/** The app's NATS client to its own commands, as a service has one to another service. */
export const THINGS_CLIENT = Symbol('THINGS_CLIENT');

export interface Thing {
  name: string;
  count: number;
}

export const thingSchema = new Schema<Thing>({ name: { type: String, required: true }, count: Number });
withOutbox(thingSchema);

class CreateThingDto {
  @IsString()
  name!: string;

  @IsInt()
  @Min(0)
  count!: number;
}

@Controller('api/things')
class ThingsController {
  constructor(
    @InjectModel('Thing') private readonly things: Model<Thing>,
    @Inject(THINGS_CLIENT) private readonly client: ClientProxy,
  ) {}

  @Get('boom')
  boom(): never {
    throw new TypeError('secret internal detail');
  }

  @Get('too-many')
  tooMany(): never {
    throw new TooManyRequestsException('Too many things, please wait', 42);
  }

  @Get('echo/:text')
  async echoOverNats(@Param('text') text: string): Promise<unknown> {
    return requestReply(this.client, 'things.echo', { text }, 2_000);
  }

  @Get(':id')
  async one(@Param('id') id: string): Promise<Thing | null> {
    return this.things.findById(id).lean();
  }

  @Post()
  async create(@Body() body: CreateThingDto): Promise<unknown> {
    return { received: body };
  }

  @MessagePattern('things.echo')
  echo(@Payload() data: { text: string }): { text: string } {
    return { text: data.text };
  }

  @MessagePattern('things.slow')
  async slow(): Promise<string> {
    await new Promise((resolve) => setTimeout(resolve, 2_000));
    return 'late';
  }

  @MessagePattern('things.refuse')
  refuse(): never {
    throw rpcRefusal(409, 'Sorry. Product is out of stock');
  }
}

/**
 * An app of things for a test, as `module`: the kit, the Thing model (with its outbox) and the NATS
 * client to the app's own commands (`THINGS_CLIENT`), with the controllers and providers given.
 */
export function thingsApp(
  module: Type,
  context: ServiceContext,
  parts: { controllers: Type[]; providers?: Provider[] },
): DynamicModule {
  return {
    module,
    imports: [
      ServiceKitModule.forRoot(context),
      MongooseModule.forFeature([{ name: 'Thing', schema: thingSchema }]),
    ],
    controllers: parts.controllers,
    providers: [natsClientProvider(THINGS_CLIENT, 'things'), ...(parts.providers ?? [])],
  };
}

@Module({})
export class TestAppModule {
  static register(context: ServiceContext): DynamicModule {
    return thingsApp(TestAppModule, context, { controllers: [ThingsController] });
  }
}
