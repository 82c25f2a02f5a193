import { PRODUCT_LIMITS, PRODUCT_SORTS, type ProductSort } from '@shop/contracts';
import { QueryBoolean, QueryNumber, QueryText } from '@shop/service-kit';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

// An empty parameter (`?query=`) means "not given"; anything else keeps its type, so a repeated
// parameter (an array) or an operator object fails validation instead of reaching a query. A price
// may have decimals, which the kit's QueryNumber (digits only) refuses.
const QueryPrice = () =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    return value.trim() === '' ? undefined : Number(value);
  });

/** The filters of `GET /api/products` and of `GET /api/products/facets` (contracts: ProductFilterQuery). */
export class ProductFilterDto {
  @IsOptional()
  @QueryText()
  @IsString()
  @MaxLength(100)
  query?: string;

  @IsOptional()
  @QueryText()
  @IsString()
  @MaxLength(60)
  category?: string;

  @IsOptional()
  @QueryText()
  @IsString()
  @MaxLength(60)
  brand?: string;

  @IsOptional()
  @QueryPrice()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  minPrice?: number;

  @IsOptional()
  @QueryPrice()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  maxPrice?: number;

  /** `true`: only the products at their low-stock threshold or below. */
  @IsOptional()
  @QueryBoolean()
  @IsBoolean({ message: 'lowStock must be true or false' })
  lowStock?: boolean;
}

/** The query of `GET /api/products` (contracts: ProductSearchQuery): the filters, an order and a page. */
export class ProductSearchDto extends ProductFilterDto {
  @IsOptional()
  @QueryText()
  @IsIn(PRODUCT_SORTS)
  sort?: ProductSort;

  @IsOptional()
  @QueryNumber()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number;

  @IsOptional()
  @QueryNumber()
  @IsInt()
  @Min(1)
  @Max(PRODUCT_LIMITS.maxPageSize)
  pageSize?: number;
}
