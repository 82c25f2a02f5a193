import { PRODUCT_LIMITS, PRODUCT_MESSAGES, isMediaUrl } from '@shop/contracts';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Trim } from '@shop/service-kit';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsInt,
  IsNotEmpty,
  IsNumber,
  IsOptional,
  IsString,
  Max,
  MaxLength,
  Min,
  type ValidationOptions,
  ValidateBy,
} from 'class-validator';

const required = { message: '$property is required' };

/** Only images the media service stored: no other host, no `javascript:` or `file:` URL. */
function IsMediaImageUrl(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isMediaImageUrl',
      validator: {
        validate: (value: unknown) => isMediaUrl(value),
        defaultMessage: () => 'Each image must be an uploaded image URL (/api/media/...)',
      },
    },
    options,
  );
}

/**
 * The fields create and update share (docs/product/rules.md, "Listings"); countInStock differs, see
 * below.
 */
abstract class ProductInputDto {
  @Trim()
  @IsString()
  @IsNotEmpty(required)
  @MaxLength(120)
  name!: string;

  @IsOptional()
  @IsString()
  @MaxLength(100)
  slug?: string;

  @IsArray({ message: PRODUCT_MESSAGES.noImage })
  @ArrayMinSize(PRODUCT_LIMITS.minImages, { message: PRODUCT_MESSAGES.noImage })
  @ArrayMaxSize(PRODUCT_LIMITS.maxImages, { message: PRODUCT_MESSAGES.tooManyImages })
  @IsMediaImageUrl({ each: true })
  image!: string[];

  @Trim()
  @IsString()
  @IsNotEmpty(required)
  @MaxLength(60)
  category!: string;

  @Trim()
  @IsString()
  @IsNotEmpty(required)
  @MaxLength(60)
  brand!: string;

  @IsNumber(
    { allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 },
    { message: 'price must be a number with at most two decimals' },
  )
  @Min(PRODUCT_LIMITS.minPrice)
  @Max(PRODUCT_LIMITS.maxPrice)
  price!: number;

  abstract countInStock: number;

  @Trim()
  @IsString()
  @IsNotEmpty(required)
  @MaxLength(5_000)
  description!: string;

  @IsOptional()
  @IsNumber({ allowNaN: false, allowInfinity: false })
  @Min(0)
  @Max(5)
  rating?: number;

  @IsOptional()
  @IsInt()
  @Min(0)
  numReviews?: number;

  /** Low on stock at this many units or fewer; null for the site's default; kept when absent. */
  @ApiPropertyOptional({ type: 'integer', nullable: true })
  @IsOptional()
  @IsInt({ message: 'lowStockThreshold must be a whole number, or null for the site default' })
  @Min(0)
  @Max(PRODUCT_LIMITS.maxCountInStock)
  lowStockThreshold?: number | null;
}

export class CreateProductDto extends ProductInputDto {
  @IsInt()
  @Min(1)
  @Max(PRODUCT_LIMITS.maxCountInStock)
  countInStock!: number;
}

export class UpdateProductDto extends ProductInputDto {
  @IsInt()
  @Min(0)
  @Max(PRODUCT_LIMITS.maxCountInStock)
  countInStock!: number;
}
