import { Body, Controller, Post } from '@nestjs/common';
import type { Product } from '@shop/contracts';
import { AdminOnly } from '@shop/service-kit';
import { CreateProductDto } from './dto/product-input.dto';
import { ProductsAdminService } from './products-admin.service';

/** `POST /api/listings/create`: the admin's "Create listing" screen (spec §2, §7). */
@Controller('api/listings')
export class ListingsController {
  constructor(private readonly admin: ProductsAdminService) {}

  @Post('create')
  @AdminOnly()
  create(@Body() input: CreateProductDto): Promise<Product> {
    return this.admin.create(input);
  }
}
