import { ApiProperty } from '@nestjs/swagger';

// What the catalogue answers: through the OpenAPI document, each class is the source of the contract
// type @shop/contracts names for it (docs/decisions/0022-one-source-per-shape.md).

export class ProductResponse {
  @ApiProperty() _id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ description: 'Lower-case words of letters and digits joined by single dashes' })
  slug!: string;
  @ApiProperty({ type: [String], description: 'Media URLs; the first is the card and cart image' })
  image!: string[];
  @ApiProperty() category!: string;
  @ApiProperty() brand!: string;
  @ApiProperty() price!: number;
  @ApiProperty({ type: 'integer' }) countInStock!: number;
  @ApiProperty() description!: string;
  @ApiProperty({ minimum: 0, maximum: 5 }) rating!: number;
  @ApiProperty({ type: 'integer' }) numReviews!: number;
  @ApiProperty({
    type: 'integer',
    nullable: true,
    minimum: 0,
    description: "Low on stock at this many units or fewer; null: the site settings' default",
  })
  lowStockThreshold!: number | null;
  @ApiProperty({
    description: 'Its stock is at its low-stock threshold or below (docs/product/rules.md, "Low stock")',
  })
  lowStock!: boolean;
}

export class ProductDeletedBody {
  @ApiProperty({ example: 'Product deleted' }) message!: string;
}

export class FacetCountResponse {
  @ApiProperty() value!: string;
  @ApiProperty({ type: 'integer' }) count!: number;
}

export class ProductFacetsResponse {
  @ApiProperty({ type: [FacetCountResponse] }) categories!: FacetCountResponse[];
  @ApiProperty({ type: [FacetCountResponse] }) brands!: FacetCountResponse[];
}
