import { USER_LIST_LIMITS } from '@shop/contracts';
import { IsBoolean, IsInt, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import { QueryBoolean, QueryNumber, QueryText } from '@shop/service-kit';

/** Query of the admin list `GET api/users/all-users`: the source of the contract type `UserListQuery`. */
export class ListUsersQuery {
  @IsOptional()
  @QueryText()
  @IsString({ message: 'q must be a single text' })
  @MaxLength(USER_LIST_LIMITS.search, { message: `q must be at most ${USER_LIST_LIMITS.search} characters` })
  q?: string;

  @IsOptional()
  @QueryBoolean()
  @IsBoolean({ message: 'isAdmin must be true or false' })
  isAdmin?: boolean;

  @IsOptional()
  @QueryNumber()
  @IsInt({ message: 'page must be a whole number' })
  @Min(1, { message: 'page must be at least 1' })
  @Max(1_000_000, { message: 'page must be at most 1000000' })
  page?: number;

  @IsOptional()
  @QueryNumber()
  @IsInt({ message: 'limit must be a whole number' })
  @Min(1, { message: 'limit must be at least 1' })
  @Max(USER_LIST_LIMITS.maxLimit, { message: `limit must be at most ${USER_LIST_LIMITS.maxLimit}` })
  limit?: number;
}
