import { ApiProperty } from '@nestjs/swagger';
import type { Confirmation, UserInfo, UserSummary } from '@shop/contracts';

// What the users API answers, for its OpenAPI document; each class implements the contract type.

export class UserSummaryResponse implements UserSummary {
  @ApiProperty() _id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty() isAdmin!: boolean;
}

export class UserInfoResponse extends UserSummaryResponse implements UserInfo {
  @ApiProperty({ description: 'The bearer token to send with every call (Authorization: Bearer ...)' })
  token!: string;
}

export class ConfirmationResponse implements Confirmation {
  @ApiProperty() message!: string;
}
