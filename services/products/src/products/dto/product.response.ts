import { ApiProperty } from '@nestjs/swagger';
import type { FacetCount, Product, ProductDeletedResponse, ProductFacets } from '@shop/contracts';

// What the catalogue answers, for its OpenAPI document; each class implements the contract type.

export class ProductResponse implements Product {
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
}

export class ProductDeletedBody implements ProductDeletedResponse {
  @ApiProperty({ example: 'Product deleted' }) message!: string;
}

export class FacetCountResponse implements FacetCount {
  @ApiProperty() value!: string;
  @ApiProperty({ type: 'integer' }) count!: number;
}

export class ProductFacetsResponse implements ProductFacets {
  @ApiProperty({ type: [FacetCountResponse] }) categories!: FacetCountResponse[];
  @ApiProperty({ type: [FacetCountResponse] }) brands!: FacetCountResponse[];
}
