import { Body, Controller, Post } from '@nestjs/common';
import type { Product } from '@shop/contracts';
import { ApiCreatedResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AdminOnly, ApiErrors, type AuthenticatedUser, CurrentUser } from '@shop/service-kit';
import { ProductResponse } from './dto/product.response';
import { CreateProductDto } from './dto/product-input.dto';
import { ProductsAdminService } from './products-admin.service';

/**
 * `POST /api/listings/create` (docs/product/calls.md, "Catalogue"): the admin's "Create listing" screen
 * (docs/product/screens.md, "Create listing and Update Product").
 */
@ApiTags('products')
@Controller('api/listings')
export class ListingsController {
  constructor(private readonly admin: ProductsAdminService) {}

  @Post('create')
  @AdminOnly()
  @ApiOperation({ summary: 'Create a product (admins)' })
  @ApiCreatedResponse({ type: ProductResponse })
  @ApiErrors(409)
  create(@CurrentUser() admin: AuthenticatedUser, @Body() input: CreateProductDto): Promise<Product> {
    return this.admin.create(admin, input);
  }
}
