import { PRODUCT_LIMITS, PRODUCT_SORTS, type ProductSort } from '@shop/contracts';
import { Transform } from 'class-transformer';
import { IsIn, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import type { ProductFilter, ProductSearch } from '../product-search';

// An empty parameter (`?query=`) means "not given"; anything else keeps its type, so a repeated
// parameter (an array) or an operator object fails validation instead of reaching a query.
const blankIsAbsent = () =>
  Transform(({ value }: { value: unknown }) =>
    typeof value === 'string' && value.trim() === '' ? undefined : value,
  );
const asNumber = () =>
  Transform(({ value }: { value: unknown }) => {
    if (typeof value !== 'string') return value;
    return value.trim() === '' ? undefined : Number(value);
  });

/** The filters of `GET /api/products` and of `GET /api/products/facets` (contracts: ProductFilterQuery). */
export class ProductFilterDto implements ProductFilter {
  @IsOptional()
  @blankIsAbsent()
  @IsString()
  @MaxLength(100)
  query?: string;

  @IsOptional()
  @blankIsAbsent()
  @IsString()
  @MaxLength(60)
  category?: string;

  @IsOptional()
  @blankIsAbsent()
  @IsString()
  @MaxLength(60)
  brand?: string;

  @IsOptional()
  @asNumber()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  minPrice?: number;

  @IsOptional()
  @asNumber()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  maxPrice?: number;
}

/** The query of `GET /api/products` (contracts: ProductSearchQuery): the filters, an order and a page. */
export class ProductSearchDto extends ProductFilterDto implements ProductSearch {
  @IsOptional()
  @blankIsAbsent()
  @IsIn(PRODUCT_SORTS)
  sort?: ProductSort;

  @IsOptional()
  @asNumber()
  @IsInt()
  @Min(1)
  @Max(1_000_000)
  page?: number;

  @IsOptional()
  @asNumber()
  @IsInt()
  @Min(1)
  @Max(PRODUCT_LIMITS.maxPageSize)
  pageSize?: number;
}
