import { ApiProperty } from '@nestjs/swagger';

// What the users API answers: through the OpenAPI document, each class is the source of the contract
// type @shop/contracts names for it (docs/decisions/0022-one-source-per-shape.md).

export class UserSummaryResponse {
  @ApiProperty() _id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ format: 'email' }) email!: string;
  @ApiProperty() isAdmin!: boolean;
}

export class UserInfoResponse extends UserSummaryResponse {
  @ApiProperty({ description: 'The bearer token to send with every call (Authorization: Bearer ...)' })
  token!: string;
}

export class ConfirmationResponse {
  @ApiProperty() message!: string;
}
