import { USER_LIST_LIMITS } from '@shop/contracts';
import { IsBoolean, IsOptional, IsString, MaxLength } from 'class-validator';
import { PagedQuery, QueryBoolean, QueryText } from '@shop/service-kit';

/** Query of the admin list `GET api/users/all-users`: the source of the contract type `UserListQuery`. */
export class ListUsersQuery extends PagedQuery(USER_LIST_LIMITS.maxLimit) {
  @IsOptional()
  @QueryText()
  @IsString({ message: 'q must be a single text' })
  @MaxLength(USER_LIST_LIMITS.search, { message: `q must be at most ${USER_LIST_LIMITS.search} characters` })
  q?: string;

  @IsOptional()
  @QueryBoolean()
  @IsBoolean({ message: 'isAdmin must be true or false' })
  isAdmin?: boolean;
}
